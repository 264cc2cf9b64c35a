import { DomainError } from '@domain/shared/errors';
import { expect } from 'vitest';

/**
 * Given/when/then over a pure decider (STYLE.md): `given([events]).when(command).then([events])` or
 * `.thenThrows('CODE')`. The state is folded from the given events with the aggregate's own `evolve`.
 */
export interface Decider<Command, Event, State> {
  initial: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event | Event[];
}

export function specFor<Command, Event, State>(decider: Decider<Command, Event, State>) {
  return (history: Event[]) => ({
    when(command: Command) {
      const state = history.reduce(decider.evolve, decider.initial);
      const run = () => {
        const decided = decider.decide(command, state);
        return Array.isArray(decided) ? decided : [decided];
      };
      return {
        // biome-ignore lint/suspicious/noThenProperty: STYLE.md's given/when/then; this object is never awaited
        then(expected: Event[]) {
          expect(run()).toEqual(expected);
        },
        thenThrows(code: string, params?: Record<string, string | number>) {
          let thrown: unknown;
          try {
            run();
          } catch (error) {
            thrown = error;
          }
          expect(thrown, `expected ${code}`).toBeInstanceOf(DomainError);
          expect((thrown as DomainError).code).toBe(code);
          if (params) expect((thrown as DomainError).params).toEqual(params);
        },
      };
    },
  });
}

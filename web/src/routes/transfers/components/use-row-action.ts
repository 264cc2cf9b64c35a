import type { DataGridHandle } from '@web/components/data-grid';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type RefObject, useCallback } from 'react';

/** An action run straight from a grid row (approve, ship): its answer is shown and the rows reload; a refusal shown. */
export function useRowAction<Action extends string>(
  mutate: (
    variables: { id: string; action: Action },
    options: { onSuccess(answer: { msg: string }): void; onError(error: Error): void },
  ) => void,
  action: Action,
  grid: RefObject<DataGridHandle | null>,
) {
  const notify = useNotify();
  return useCallback(
    (row: { id: string }) =>
      mutate(
        { id: row.id, action },
        {
          onSuccess: (answer) => {
            notify({ kind: 'success', message: answer.msg });
            grid.current?.refresh();
          },
          onError: (error) => notify({ kind: 'error', message: messageOf(error) }),
        },
      ),
    [mutate, action, grid, notify],
  );
}

import { PERMISSION_AREAS, type PermissionArea, type PermissionKey } from '@domain/access/permissions';
import { FEED_EVENT_TYPES, feedEventType } from './cloud-events';
import { refuseFeed } from './errors';

/**
 * An integrator's app acts with the permission keys of the user who made it: it may read an event type only while
 * that user may read what the type is about (any key of the area whose screens show it), and only while that user
 * holds `appstore`, the key of apps.
 */

export const APP_KEY: PermissionKey = 'appstore';

/** The permission areas whose keys show what each kind of event is about, by the type's first word. */
const AREAS_BY_PREFIX: readonly [prefix: string, areas: readonly PermissionArea[]][] = [
  ['Stock', ['inventory']],
  ['Gin', ['inventory', 'goodsIssueNotes']],
  ['TransferRequest', ['transferStock']],
  ['Transfer', ['transferStock']],
  ['Purchase', ['purchases']],
  ['GoodsReceipt', ['purchases']],
  ['Order', ['orders']],
  ['Batch', ['orders']],
  ['Scan', ['orders']],
  ['Promotion', ['listings']],
  ['PriceRule', ['listings']],
  ['Listing', ['listings']],
  ['Channel', ['inventory']],
];

/** The keys any one of which lets a user read events of this type (none for a type no area claims). */
export function readersOf(eventType: string): readonly PermissionKey[] {
  const found = AREAS_BY_PREFIX.find(([prefix]) => eventType.startsWith(prefix));
  return found ? found[1].flatMap((area) => PERMISSION_AREAS[area]) : [];
}

export const canReadType = (keys: ReadonlySet<PermissionKey>, eventType: string) =>
  readersOf(eventType).some((key) => keys.has(key));

/** The types a user holding `keys` may give an app. */
export const readableTypes = (keys: ReadonlySet<PermissionKey>) =>
  FEED_EVENT_TYPES.filter((type) => canReadType(keys, type));

export const APP_NAME_MAX = 100;

/**
 * An app's name and event types as the seller gave them, checked against what its maker may read: the plain type
 * names, sorted, without repeats.
 */
export function appScope(
  input: { name: string; eventTypes: readonly string[] },
  makerKeys: ReadonlySet<PermissionKey>,
): { name: string; eventTypes: string[] } {
  const name = input.name.trim();
  if (!name) throw refuseFeed('APP_NAME_REQUIRED');
  if (input.eventTypes.length === 0) throw refuseFeed('APP_TYPES_REQUIRED');
  const types = new Set<string>();
  for (const given of input.eventTypes) {
    const type = feedEventType(given);
    if (!type) throw refuseFeed('FEED_TYPE_UNKNOWN', { type: given });
    if (!canReadType(makerKeys, type)) throw refuseFeed('FEED_TYPE_OUT_OF_SCOPE', { type });
    types.add(type);
  }
  return { name, eventTypes: [...types].sort() };
}

/** The types a read asks for, each one the app's and one its maker may still read; all of those when none named. */
export function typesToRead(
  caller: { eventTypes: readonly string[]; makerKeys: ReadonlySet<PermissionKey> },
  asked: string | undefined,
): string[] {
  const allowed = caller.eventTypes.filter((type) => canReadType(caller.makerKeys, type));
  if (asked === undefined || asked.trim() === '') {
    if (allowed.length === 0) throw refuseFeed('APP_CREATOR_CANNOT_READ');
    return allowed;
  }
  const types = new Set<string>();
  for (const name of asked
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)) {
    const type = feedEventType(name);
    if (!type) throw refuseFeed('FEED_TYPE_UNKNOWN', { type: name });
    if (!allowed.includes(type)) throw refuseFeed('FEED_TYPE_OUT_OF_SCOPE', { type });
    types.add(type);
  }
  return [...types];
}

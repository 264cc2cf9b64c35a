import { z } from 'zod';

/**
 * # Links of channel SKUs to master codes, as events
 *
 * A channel SKU's link (`channel_skus.master_code_id`) follows the order import's rule and changes when a download,
 * a publish, a mapping or a master code's codes change it. Each time SKUs become linked, `ChannelSkusLinked` is
 * appended on the store's stream (`channellinks-<tenant>.<storeId>`): the stock push answers it at once with the
 * quantity each newly linked SKU should show, rather than at the SKU's next stock change or the hourly
 * reconciliation, and the push log names it as the reason.
 */

const Id = z.string().min(1).max(100);

export const ChannelSkusLinked = z.strictObject({
  storeId: Id,
  links: z
    .array(
      z.strictObject({
        itemId: Id,
        /** '' for an item without variants. */
        modelId: z.string().max(100),
        masterCodeId: Id,
      }),
    )
    .min(1),
});
export type ChannelSkusLinked = z.infer<typeof ChannelSkusLinked>;

export const channelLinkEvents = { ChannelSkusLinked } as const;

export const CHANNEL_LINKS_CATEGORY = 'channellinks';
export const channelLinksStreamId = (tenantId: string, storeId: string) =>
  `${CHANNEL_LINKS_CATEGORY}-${tenantId}.${storeId}`;

import { ListingGrid } from './list-page';

/** Products → draft listings: the listings not yet published to any store. */
export default function DraftListingsPage() {
  return <ListingGrid prefix="drafts" fixedStatus="draft" />;
}

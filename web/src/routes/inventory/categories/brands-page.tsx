import { NameListPage } from './name-list-page';

export default function BrandsPage() {
  return <NameListPage kind="brand" />;
}

import { NameListPage } from './name-list-page';

export default function UnitsPage() {
  return <NameListPage kind="unit" />;
}

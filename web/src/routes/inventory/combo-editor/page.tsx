import { MasterCodeEditor } from '../master-code-editor/page';

/** Inventory → combo list → new combo: a combo master code with its items (spec §3 "Combo"). */
export default function NewComboPage() {
  return <MasterCodeEditor combo />;
}

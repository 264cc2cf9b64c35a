import { DOCUMENT_READERS, type DocumentKind } from '@domain/audit/documents';
import { useSession } from '@web/auth/session';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** "Replay history": a document's page or drawer links to its replay, for whoever may see the document. */
export function ReplayLink({ kind, id }: { kind: DocumentKind; id: string }) {
  const { t } = useTranslation('audit');
  const { can } = useSession();
  if (!DOCUMENT_READERS[kind].some((key) => can(key))) return null;
  return (
    <Link className="button" to={`/audit/${kind}/${encodeURIComponent(id)}`}>
      {t('replay.history')}
    </Link>
  );
}

import { FormMessage, messageOf } from '@web/shell/form';
import { Spinner } from '@web/shell/spinner';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/**
 * One record's screen (an order, a note) once it is read: a spinner while it is, and should it fail (not found,
 * no access) the reason with the way back to its list.
 */
export function RecordScreen<Record>({
  query,
  loading,
  back,
  children,
}: {
  query: { isPending: boolean; error: Error | null; data: Record | undefined };
  loading: string;
  back: { to: string; label: string };
  children(record: Record): ReactNode;
}) {
  if (query.isPending) return <Spinner label={loading} />;
  if (query.error || !query.data) {
    return (
      <div className="page">
        <FormMessage kind="error">{messageOf(query.error)}</FormMessage>
        <Link to={back.to}>{back.label}</Link>
      </div>
    );
  }
  return children(query.data);
}

import { TEXT_LIMITS } from '@domain/shared/limits';
import {
  type CatalogueEntry,
  type CatalogueKind,
  useAddCatalogueEntry,
  useCatalogueEntries,
  useDeleteCatalogueEntry,
  useRenameCatalogueEntry,
} from '@web/api/inventory-catalogue';
import { ConfirmDialog, ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, fieldErrorsOf, messageOf, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { Spinner } from '@web/shell/spinner';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Brands or units: a name each, unique in the account whatever its case. Add and rename in a dialog, delete after a
 * confirmation; the API refuses a name taken and a row master codes still use ("in use"), and says so.
 */

function NameForm({
  kind,
  entry,
  onClose,
}: {
  kind: CatalogueKind;
  entry: CatalogueEntry | null;
  onClose(): void;
}) {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const formId = useId();
  const add = useAddCatalogueEntry(kind);
  const rename = useRenameCatalogueEntry(kind);
  const [name, setName] = useState(entry?.name ?? '');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const busy = add.isPending || rename.isPending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    if (!name.trim()) {
      setError(t(`${kind}s.errors.name_required`));
      return;
    }
    try {
      const answer = entry
        ? await rename.mutateAsync({ id: entry.id, name: name.trim() })
        : await add.mutateAsync(name.trim());
      notify({ kind: 'success', message: answer.msg });
      onClose();
    } catch (failed) {
      setFailure(messageOf(failed));
      setError(fieldErrorsOf(failed).name);
    }
  }

  return (
    <ModalDialog
      title={entry ? t(`${kind}s.edit_title`) : t(`${kind}s.add_title`)}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      size="small"
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            {t('actions.cancel')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={busy}>
            {entry ? t('actions.save') : t(`${kind}s.add`)}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate>
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        <TextField
          label={t(`${kind}s.fields.name`)}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setError(undefined);
          }}
          error={error}
          limit={TEXT_LIMITS.name}
          required
        />
      </form>
    </ModalDialog>
  );
}

export function NameList({ kind }: { kind: CatalogueKind }) {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const entries = useCatalogueEntries(kind);
  const remove = useDeleteCatalogueEntry(kind);
  const [editing, setEditing] = useState<CatalogueEntry | 'new' | null>(null);
  const [deleting, setDeleting] = useState<CatalogueEntry | null>(null);
  const key = (name: string) => `${kind}s.${name}`;

  async function confirmDelete() {
    if (!deleting) return;
    try {
      const answer = await remove.mutateAsync(deleting.id);
      notify({ kind: 'success', message: answer.msg });
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    } finally {
      setDeleting(null);
    }
  }

  const rows = entries.data ?? [];
  return (
    <section className="card" aria-label={t(key('list_label'))}>
      <div className="section-header">
        <p className="muted">{t(key('intro'))}</p>
        <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
          {t(key('add'))}
        </button>
      </div>
      {entries.error && <FormMessage kind="error">{messageOf(entries.error)}</FormMessage>}
      {entries.isPending ? (
        <Spinner label={t('loading')} />
      ) : rows.length === 0 ? (
        <p className="muted">{t(key('empty'))}</p>
      ) : (
        <table className="simple-table">
          <thead>
            <tr>
              <th scope="col">{t(key('fields.name'))}</th>
              <th scope="col">{t('columns.master_codes')}</th>
              <th scope="col">{t('columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((entry) => (
              <tr key={entry.id}>
                <td>{entry.name}</td>
                <td>{entry.master_code_count}</td>
                <td>
                  <div className="row-actions">
                    <button
                      type="button"
                      className="button button-small"
                      aria-label={t(key('edit_named'), { name: entry.name })}
                      onClick={() => setEditing(entry)}
                    >
                      {t('actions.edit')}
                    </button>
                    <button
                      type="button"
                      className="button button-small button-danger-outline"
                      aria-label={t(key('delete_named'), { name: entry.name })}
                      onClick={() => setDeleting(entry)}
                    >
                      {t('actions.delete')}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && (
        <NameForm kind={kind} entry={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
      {deleting && (
        <ConfirmDialog
          title={t(key('delete_title'))}
          message={t(key('delete_confirm'), { name: deleting.name })}
          confirmLabel={t('actions.delete')}
          cancelLabel={t('actions.cancel')}
          busy={remove.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}

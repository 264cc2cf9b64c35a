import { TEXT_LIMITS } from '@domain/shared/limits';
import {
  type Group,
  type PermissionCatalogue,
  useCreateGroup,
  useDeleteGroup,
  useUpdateGroup,
} from '@web/api/groups';
import { ConfirmDialog } from '@web/components/modal-dialog';
import { FormMessage, fieldErrorsOf, messageOf, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionChecklist } from './permission-checklist';

/** One group: its name and permission checklist; saved as a whole, deleted after a confirmation. */
export function GroupEditor({
  group,
  catalogue,
  onSaved,
  onDeleted,
}: {
  /** null: a new group. */
  group: Group | null;
  catalogue: PermissionCatalogue;
  onSaved: (group: Group) => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation('settings');
  const notify = useNotify();
  const create = useCreateGroup();
  const update = useUpdateGroup();
  const remove = useDeleteGroup();
  const [name, setName] = useState(group?.name ?? '');
  const [selected, setSelected] = useState<Set<string>>(() => new Set(group?.permissions ?? []));
  const [nameError, setNameError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const busy = create.isPending || update.isPending || remove.isPending;
  const allKeys = catalogue.areas.flatMap((area) => area.keys);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    if (!name.trim()) {
      setNameError(t('groups.errors.name_required'));
      return;
    }
    // The checklist's order, so a saved group reads the same way the list shows it.
    const permissions = allKeys.filter((key) => selected.has(key));
    try {
      const answer = group
        ? await update.mutateAsync({ id: group.id, changes: { name: name.trim(), permissions } })
        : await create.mutateAsync({ name: name.trim(), permissions });
      notify({ kind: 'success', message: answer.msg });
      onSaved(answer.data);
    } catch (error) {
      setFailure(messageOf(error));
      setNameError(fieldErrorsOf(error).name);
    }
  }

  async function confirmDelete() {
    if (!group) return;
    try {
      const answer = await remove.mutateAsync(group.id);
      notify({ kind: 'success', message: answer.msg });
      onDeleted();
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    } finally {
      setConfirming(false);
    }
  }

  return (
    <form
      className="form card group-editor"
      onSubmit={submit}
      noValidate
      aria-label={t('groups.editor_label')}
    >
      <div className="editor-header">
        <h2>{group ? t('groups.edit_title', { name: group.name }) : t('groups.create_title')}</h2>
        {group && <span className="muted">{t('groups.member_count', { count: group.member_count })}</span>}
      </div>
      {failure && <FormMessage kind="error">{failure}</FormMessage>}
      <TextField
        label={t('groups.fields.name')}
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          setNameError(undefined);
        }}
        error={nameError}
        limit={TEXT_LIMITS.name}
        required
      />
      <div className="checklist-header">
        <h3>{t('groups.permissions_title')}</h3>
        <span className="muted">
          {t('groups.selected_count', { chosen: selected.size, total: allKeys.length })}
        </span>
        <div className="checklist-actions">
          <button type="button" className="button button-small" onClick={() => setSelected(new Set(allKeys))}>
            {t('groups.select_everything')}
          </button>
          <button type="button" className="button button-small" onClick={() => setSelected(new Set())}>
            {t('groups.clear_everything')}
          </button>
        </div>
      </div>
      <PermissionChecklist catalogue={catalogue} selected={selected} onChange={setSelected} disabled={busy} />
      <div className="form-actions">
        {group && (
          <button
            type="button"
            className="button button-danger-outline"
            onClick={() => setConfirming(true)}
            disabled={busy}
          >
            {t('groups.delete')}
          </button>
        )}
        <button type="submit" className="button button-primary" disabled={busy}>
          {group ? t('actions.save') : t('groups.create')}
        </button>
      </div>
      {confirming && group && (
        <ConfirmDialog
          title={t('groups.delete_title')}
          message={t('groups.delete_confirm', { name: group.name })}
          confirmLabel={t('actions.delete')}
          cancelLabel={t('actions.cancel')}
          busy={remove.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setConfirming(false)}
        />
      )}
    </form>
  );
}

import {
  type InventoryCategoryNode,
  useAddInventoryCategory,
  useDeleteInventoryCategory,
  useInventoryCategories,
  useUpdateInventoryCategory,
} from '@web/api/inventory-catalogue';
import { ConfirmDialog, ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, fieldErrorsOf, messageOf, SelectField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { Spinner } from '@web/shell/spinner';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { categoryOptions } from '../components/fields';

/**
 * The inventory's category tree (one per account): add at the root or under a category, rename, move under another
 * parent, delete after a confirmation. The API refuses deleting a category that has sub-categories or that master
 * codes use, and moving one under itself; its message is shown as it comes. A filter box narrows the tree by name.
 */

type Editing = { mode: 'add'; parentId: string | null } | { mode: 'edit'; node: InventoryCategoryNode };

function CategoryForm({
  tree,
  editing,
  onClose,
}: {
  tree: InventoryCategoryNode[];
  editing: Editing;
  onClose(): void;
}) {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const formId = useId();
  const add = useAddInventoryCategory();
  const update = useUpdateInventoryCategory();
  const [name, setName] = useState(editing.mode === 'edit' ? editing.node.name : '');
  const [parentId, setParentId] = useState(
    (editing.mode === 'edit' ? editing.node.parent_id : editing.parentId) ?? '',
  );
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const busy = add.isPending || update.isPending;
  const parents = categoryOptions(tree, editing.mode === 'edit' ? editing.node.id : undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    if (!name.trim()) {
      setErrors({ name: t('categories.errors.name_required') });
      return;
    }
    const body = { name: name.trim(), parent_id: parentId || null };
    try {
      const answer =
        editing.mode === 'edit'
          ? await update.mutateAsync({ id: editing.node.id, ...body })
          : await add.mutateAsync(body);
      notify({ kind: 'success', message: answer.msg });
      onClose();
    } catch (error) {
      setFailure(messageOf(error));
      setErrors(fieldErrorsOf(error));
    }
  }

  return (
    <ModalDialog
      title={editing.mode === 'edit' ? t('categories.edit_title') : t('categories.add_title')}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            {t('actions.cancel')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={busy}>
            {editing.mode === 'edit' ? t('actions.save') : t('categories.add')}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate>
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        <TextField
          label={t('categories.fields.name')}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setErrors({});
          }}
          error={errors.name}
          maxLength={100}
          required
        />
        <SelectField
          label={t('categories.fields.parent')}
          value={parentId}
          onChange={(event) => setParentId(event.target.value)}
          error={errors.parent_id}
          options={parents}
          placeholder={t('categories.root')}
        />
      </form>
    </ModalDialog>
  );
}

/** The nodes whose name contains `text`, with their ancestors so they stay in place. */
function filterTree(nodes: InventoryCategoryNode[], text: string): InventoryCategoryNode[] {
  if (!text) return nodes;
  const needle = text.toLocaleLowerCase();
  return nodes.flatMap((node) => {
    const children = filterTree(node.children, text);
    return node.name.toLocaleLowerCase().includes(needle) || children.length > 0
      ? [{ ...node, children }]
      : [];
  });
}

function Branch({
  nodes,
  filtering,
  collapsed,
  onToggle,
  onAddUnder,
  onEdit,
  onDelete,
}: {
  nodes: InventoryCategoryNode[];
  filtering: boolean;
  collapsed: ReadonlySet<string>;
  onToggle(node: InventoryCategoryNode): void;
  onAddUnder(node: InventoryCategoryNode): void;
  onEdit(node: InventoryCategoryNode): void;
  onDelete(node: InventoryCategoryNode): void;
}) {
  const { t } = useTranslation('inventory');
  return (
    <ul className="category-branch">
      {nodes.map((node) => {
        const hasChildren = node.children.length > 0;
        const open = hasChildren && (filtering || !collapsed.has(node.id));
        return (
          <li key={node.id} className="category-item" data-category={node.name}>
            <div className="category-row">
              {hasChildren ? (
                <button
                  type="button"
                  className="tree-toggle"
                  aria-expanded={open}
                  aria-label={t(open ? 'categories.collapse' : 'categories.expand', { name: node.name })}
                  onClick={() => onToggle(node)}
                >
                  {open ? '▾' : '▸'}
                </button>
              ) : (
                <span className="tree-toggle-spacer" aria-hidden="true" />
              )}
              <span className="category-name">{node.name}</span>
              <span className="muted category-count">
                {t('categories.master_code_count', { count: node.master_code_count })}
              </span>
              <span className="row-actions">
                <button
                  type="button"
                  className="button button-small"
                  aria-label={t('categories.add_under', { name: node.name })}
                  onClick={() => onAddUnder(node)}
                >
                  {t('categories.add_sub')}
                </button>
                <button
                  type="button"
                  className="button button-small"
                  aria-label={t('categories.edit_named', { name: node.name })}
                  onClick={() => onEdit(node)}
                >
                  {t('actions.edit')}
                </button>
                <button
                  type="button"
                  className="button button-small button-danger-outline"
                  aria-label={t('categories.delete_named', { name: node.name })}
                  onClick={() => onDelete(node)}
                >
                  {t('actions.delete')}
                </button>
              </span>
            </div>
            {open && (
              <Branch
                nodes={node.children}
                filtering={filtering}
                collapsed={collapsed}
                onToggle={onToggle}
                onAddUnder={onAddUnder}
                onEdit={onEdit}
                onDelete={onDelete}
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function CategoryTree() {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const filterId = useId();
  const tree = useInventoryCategories();
  const remove = useDeleteInventoryCategory();
  const [filter, setFilter] = useState('');
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<InventoryCategoryNode | null>(null);
  const roots = tree.data ?? [];
  const text = filter.trim();
  const shown = useMemo(() => filterTree(roots, text), [roots, text]);

  const toggle = (node: InventoryCategoryNode) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(node.id)) next.delete(node.id);
      else next.add(node.id);
      return next;
    });

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

  return (
    <section className="card" aria-label={t('categories.tree_label')}>
      <div className="section-header">
        <div className="toolbar">
          <label htmlFor={filterId} className="visually-hidden">
            {t('categories.filter_label')}
          </label>
          <input
            id={filterId}
            type="search"
            className="input toolbar-search"
            placeholder={t('categories.filter_placeholder')}
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
          />
        </div>
        <button
          type="button"
          className="button button-primary"
          onClick={() => setEditing({ mode: 'add', parentId: null })}
        >
          {t('categories.add')}
        </button>
      </div>
      {tree.error && <FormMessage kind="error">{messageOf(tree.error)}</FormMessage>}
      {tree.isPending ? (
        <Spinner label={t('loading')} />
      ) : shown.length === 0 ? (
        <p className="muted">{text ? t('categories.no_match') : t('categories.empty')}</p>
      ) : (
        <Branch
          nodes={shown}
          filtering={text !== ''}
          collapsed={collapsed}
          onToggle={toggle}
          onAddUnder={(node) => setEditing({ mode: 'add', parentId: node.id })}
          onEdit={(node) => setEditing({ mode: 'edit', node })}
          onDelete={setDeleting}
        />
      )}
      {editing && <CategoryForm tree={roots} editing={editing} onClose={() => setEditing(null)} />}
      {deleting && (
        <ConfirmDialog
          title={t('categories.delete_title')}
          message={t('categories.delete_confirm', { name: deleting.name })}
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

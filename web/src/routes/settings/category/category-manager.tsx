import {
  CATEGORY_SEARCH_MIN_LENGTH,
  type CategoryNode,
  useAddCategory,
  useCategorySearch,
  useCategoryTree,
  useDeleteCategory,
  useUpdateCategory,
} from '@web/api/categories';
import { useSession } from '@web/auth/session';
import { ConfirmDialog, ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, fieldErrorsOf, messageOf, SelectField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { Spinner } from '@web/shell/spinner';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@web/routes/management.css';

/**
 * One platform's category tree (spec §3, §5, §8, §9): shown from the root or from a chosen category, with add,
 * rename, move (a new parent) and delete — which asks first, and takes the sub-categories with it. Search starts at
 * 2 characters. Users without `listings-manage` see the tree without the buttons that change it.
 */

const SEARCH_DELAY_MS = 300;

interface Located {
  node: CategoryNode;
  /** From the root down to the node's parent. */
  ancestors: CategoryNode[];
}

function locate(nodes: CategoryNode[], id: string, ancestors: CategoryNode[] = []): Located | null {
  for (const node of nodes) {
    if (node.id === id) return { node, ancestors };
    const found = locate(node.children, id, [...ancestors, node]);
    if (found) return found;
  }
  return null;
}

const countBelow = (node: CategoryNode): number =>
  node.children.reduce((total, child) => total + 1 + countBelow(child), 0);

/** Every category with its depth, in tree order, leaving out `skip` and everything under it. */
function flatten(nodes: CategoryNode[], skip?: string, depth = 0): { node: CategoryNode; depth: number }[] {
  return nodes.flatMap((node) =>
    node.id === skip ? [] : [{ node, depth }, ...flatten(node.children, skip, depth + 1)],
  );
}

type Editing = { mode: 'add'; parentId: string | null } | { mode: 'edit'; node: CategoryNode };

function CategoryForm({
  platform,
  tree,
  editing,
  onClose,
}: {
  platform: string;
  tree: CategoryNode[];
  editing: Editing;
  onClose: () => void;
}) {
  const { t } = useTranslation('settings');
  const notify = useNotify();
  const formId = useId();
  const add = useAddCategory(platform);
  const update = useUpdateCategory(platform);
  const [name, setName] = useState(editing.mode === 'edit' ? editing.node.name : '');
  const [parentId, setParentId] = useState<string>(
    (editing.mode === 'edit' ? editing.node.parent_id : editing.parentId) ?? '',
  );
  const [nameError, setNameError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const busy = add.isPending || update.isPending;

  const parents = flatten(tree, editing.mode === 'edit' ? editing.node.id : undefined).map(
    ({ node, depth }) => ({
      value: node.id,
      label: `${'\u2014 '.repeat(depth)}${node.name}`,
    }),
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    if (!name.trim()) {
      setNameError(t('categories.errors.name_required'));
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
      const fields = fieldErrorsOf(error);
      if (fields.name) setNameError(fields.name);
      else setFailure(messageOf(error));
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
            setNameError(undefined);
          }}
          error={nameError}
          maxLength={100}
          required
        />
        <SelectField
          label={t('categories.fields.parent')}
          value={parentId}
          onChange={(event) => setParentId(event.target.value)}
          options={parents}
          placeholder={t('categories.root')}
        />
      </form>
    </ModalDialog>
  );
}

function CategoryBranch({
  nodes,
  canManage,
  collapsed,
  onToggle,
  onOpen,
  onAddUnder,
  onEdit,
  onDelete,
}: {
  nodes: CategoryNode[];
  canManage: boolean;
  collapsed: ReadonlySet<string>;
  onToggle: (node: CategoryNode) => void;
  onOpen: (node: CategoryNode) => void;
  onAddUnder: (node: CategoryNode) => void;
  onEdit: (node: CategoryNode) => void;
  onDelete: (node: CategoryNode) => void;
}) {
  const { t } = useTranslation('settings');
  return (
    <ul className="category-branch">
      {nodes.map((node) => {
        const hasChildren = node.children.length > 0;
        const open = hasChildren && !collapsed.has(node.id);
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
              <button
                type="button"
                className="button-link category-name"
                aria-label={t('categories.open', { name: node.name })}
                onClick={() => onOpen(node)}
              >
                {node.name}
              </button>
              {hasChildren && <span className="muted category-count">({node.children.length})</span>}
              {canManage && (
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
              )}
            </div>
            {open && (
              <CategoryBranch
                nodes={node.children}
                canManage={canManage}
                collapsed={collapsed}
                onToggle={onToggle}
                onOpen={onOpen}
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

export function CategoryManager({ platform, title }: { platform: string; title: string }) {
  const { t } = useTranslation('settings');
  const notify = useNotify();
  const { can } = useSession();
  const canManage = can('listings-manage');
  const searchId = useId();
  const tree = useCategoryTree(platform);
  const remove = useDeleteCategory(platform);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [focusId, setFocusId] = useState<string | null>(null);
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<CategoryNode | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setSearch(searchText.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [searchText]);
  const searching = search.length >= CATEGORY_SEARCH_MIN_LENGTH;
  const results = useCategorySearch(platform, searching ? search : '');

  const roots = tree.data ?? [];
  const focus = useMemo(() => (focusId ? locate(roots, focusId) : null), [roots, focusId]);
  const shown = focus ? focus.node.children : roots;

  const toggle = (node: CategoryNode) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(node.id)) next.delete(node.id);
      else next.add(node.id);
      return next;
    });

  const editById = (id: string) => {
    const found = locate(roots, id);
    if (found) setEditing({ mode: 'edit', node: found.node });
  };
  const deleteById = (id: string) => {
    const found = locate(roots, id);
    if (found) setDeleting(found.node);
  };

  async function confirmDelete() {
    if (!deleting) return;
    try {
      const answer = await remove.mutateAsync(deleting.id);
      notify({ kind: 'success', message: answer.msg });
      if (focusId && (focusId === deleting.id || locate(deleting.children, focusId)))
        setFocusId(deleting.parent_id);
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    } finally {
      setDeleting(null);
    }
  }

  return (
    <div className="page management-page">
      <div className="page-header">
        <div>
          <h1 className="page-title">{title}</h1>
          <p className="muted">{t('categories.intro')}</p>
        </div>
        {canManage && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => setEditing({ mode: 'add', parentId: focus?.node.id ?? null })}
          >
            {t('categories.add')}
          </button>
        )}
      </div>

      <div className="toolbar">
        <label htmlFor={searchId} className="visually-hidden">
          {t('categories.search_label')}
        </label>
        <input
          id={searchId}
          type="search"
          className="input toolbar-search"
          placeholder={t('categories.search_placeholder')}
          value={searchText}
          aria-describedby={`${searchId}-hint`}
          onChange={(event) => setSearchText(event.target.value)}
        />
        <span id={`${searchId}-hint`} className="muted field-hint">
          {t('categories.search_hint', { count: CATEGORY_SEARCH_MIN_LENGTH })}
        </span>
      </div>

      {tree.error && <FormMessage kind="error">{messageOf(tree.error)}</FormMessage>}

      {searching ? (
        <section className="card" aria-label={t('categories.results_label')}>
          <h2>{t('categories.results_title', { text: search })}</h2>
          {results.isPending ? (
            <Spinner label={t('loading')} />
          ) : results.error ? (
            <FormMessage kind="error">{messageOf(results.error)}</FormMessage>
          ) : (results.data ?? []).length === 0 ? (
            <p className="muted">{t('categories.no_results')}</p>
          ) : (
            <ul className="search-results">
              {(results.data ?? []).map((match) => (
                <li key={match.id} className="category-row">
                  <span className="category-path">
                    {match.path.slice(0, -1).map((part, index) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a path may repeat a name; its position is its identity
                      <span key={index} className="muted">
                        {part} ›{' '}
                      </span>
                    ))}
                    <strong>{match.name}</strong>
                  </span>
                  {canManage && (
                    <span className="row-actions">
                      <button
                        type="button"
                        className="button button-small"
                        aria-label={t('categories.edit_named', { name: match.name })}
                        onClick={() => editById(match.id)}
                      >
                        {t('actions.edit')}
                      </button>
                      <button
                        type="button"
                        className="button button-small button-danger-outline"
                        aria-label={t('categories.delete_named', { name: match.name })}
                        onClick={() => deleteById(match.id)}
                      >
                        {t('actions.delete')}
                      </button>
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : (
        <section className="card" aria-label={t('categories.tree_label')}>
          <nav className="breadcrumb" aria-label={t('categories.breadcrumb_label')}>
            <button
              type="button"
              className="button-link"
              aria-current={focus ? undefined : 'location'}
              onClick={() => setFocusId(null)}
            >
              {t('categories.all')}
            </button>
            {focus &&
              [...focus.ancestors, focus.node].map((node) => (
                <span key={node.id}>
                  {' › '}
                  <button
                    type="button"
                    className="button-link"
                    aria-current={node.id === focus.node.id ? 'location' : undefined}
                    onClick={() => setFocusId(node.id)}
                  >
                    {node.name}
                  </button>
                </span>
              ))}
          </nav>
          {tree.isPending ? (
            <Spinner label={t('loading')} />
          ) : shown.length === 0 ? (
            <p className="muted">{focus ? t('categories.no_children') : t('categories.empty')}</p>
          ) : (
            <CategoryBranch
              nodes={shown}
              canManage={canManage}
              collapsed={collapsed}
              onToggle={toggle}
              onOpen={(node) => setFocusId(node.id)}
              onAddUnder={(node) => setEditing({ mode: 'add', parentId: node.id })}
              onEdit={(node) => setEditing({ mode: 'edit', node })}
              onDelete={setDeleting}
            />
          )}
        </section>
      )}

      {editing && (
        <CategoryForm platform={platform} tree={roots} editing={editing} onClose={() => setEditing(null)} />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('categories.delete_title')}
          message={
            countBelow(deleting) > 0
              ? t('categories.delete_confirm_tree', { name: deleting.name, count: countBelow(deleting) })
              : t('categories.delete_confirm', { name: deleting.name })
          }
          confirmLabel={t('actions.delete')}
          cancelLabel={t('actions.cancel')}
          busy={remove.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}

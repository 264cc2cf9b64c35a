import { TEXT_LIMITS } from '@domain/shared/limits';
import type { CategoryMatch } from '@web/api/categories';
import {
  categoryOptions,
  countBelow,
  filterTree,
  locate,
  type TreeNode,
} from '@web/components/category-tree';
import { ConfirmDialog, ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, fieldErrorsOf, messageOf, SelectField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { SearchToolbar } from '@web/shell/page';
import { Spinner } from '@web/shell/spinner';
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@web/routes/management.css';

/**
 * The one category tree editor (a platform's categories in settings, the inventory's categories): a tree that folds
 * open and shut, with add (at the root or under a category), rename, move (a new parent) and delete after a
 * confirmation. The API's refusals (a category in use, one with sub-categories, a move under itself) are shown as
 * they come. What differs between the screens is a prop:
 * - `search`: without it a box narrows the tree by name as you type; with it the server searches from
 *   `minLength` characters (the screen runs the query) and the matches are listed with their path.
 * - `drillDown`: a category's name opens it (its children shown under a breadcrumb); "add" then adds there.
 * - `note(node)`: what a row says after the name (a count of sub-categories, of master codes…).
 * - `canManage`: false shows the tree without the buttons that change it.
 * Texts come from `<namespace>:categories.*` and `<namespace>:actions.*`.
 */

interface Loaded<Data> {
  data?: Data | undefined;
  error: Error | null;
  isPending: boolean;
}

interface Mutation<Input> {
  mutateAsync(input: Input): Promise<{ msg: string }>;
  isPending: boolean;
}

export interface CategoryTreeEditorProps<Node extends TreeNode<Node>> {
  namespace: string;
  tree: Loaded<Node[]>;
  add: Mutation<{ name: string; parent_id: string | null }>;
  update: Mutation<{ id: string; name: string; parent_id: string | null }>;
  remove: Mutation<string>;
  deleteMessage(node: Node, below: number): string;
  canManage?: boolean;
  drillDown?: boolean;
  note?(node: Node): ReactNode;
  /** The server's search: the screen reads `query` (set through `onQuery`, typed text after a pause) into `results`. */
  search?: {
    minLength: number;
    query: string;
    onQuery(text: string): void;
    results: Loaded<CategoryMatch[]>;
  };
}

type Editing<Node> = { mode: 'add'; parentId: string | null } | { mode: 'edit'; node: Node };

const SEARCH_DELAY_MS = 300;

export function CategoryTreeEditor<Node extends TreeNode<Node>>(props: CategoryTreeEditorProps<Node>) {
  const { namespace, tree, remove, canManage = true } = props;
  const { t } = useTranslation(namespace);
  const notify = useNotify();
  const [focusId, setFocusId] = useState<string | null>(null);
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const [editing, setEditing] = useState<Editing<Node> | null>(null);
  const [deleting, setDeleting] = useState<Node | null>(null);
  const [text, setText] = useState('');

  const roots = tree.data ?? [];
  const focus = useMemo(() => (focusId ? locate(roots, focusId) : null), [roots, focusId]);
  const toggle = (node: Node) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(node.id)) next.delete(node.id);
      else next.add(node.id);
      return next;
    });
  const byId = (id: string, then: (node: Node) => void) => {
    const found = locate(roots, id);
    if (found) then(found.node);
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

  const branch = {
    canManage,
    collapsed,
    note: props.note,
    onToggle: toggle,
    onOpen: props.drillDown ? (node: Node) => setFocusId(node.id) : undefined,
    onAddUnder: (node: Node) => setEditing({ mode: 'add', parentId: node.id }),
    onEdit: (node: Node) => setEditing({ mode: 'edit', node }),
    onDelete: setDeleting,
  };

  return (
    <>
      <div className="tree-editor-header">
        {props.search ? (
          <SearchToolbar
            label={t('categories.search_label')}
            placeholder={t('categories.search_placeholder')}
            hint={t('categories.search_hint', { count: props.search.minLength })}
            value={text}
            onChange={setText}
          />
        ) : (
          <SearchToolbar
            label={t('categories.filter_label')}
            placeholder={t('categories.filter_placeholder')}
            value={text}
            onChange={setText}
          />
        )}
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
      {tree.error && <FormMessage kind="error">{messageOf(tree.error)}</FormMessage>}
      {props.search ? (
        <SearchedTree
          {...props}
          search={props.search}
          text={text}
          canManage={canManage}
          focus={focus}
          onFocus={setFocusId}
          branch={branch}
          onEdit={(id) => byId(id, (node) => setEditing({ mode: 'edit', node }))}
          onDelete={(id) => byId(id, setDeleting)}
        />
      ) : (
        <section className="card" aria-label={t('categories.tree_label')}>
          <FilteredTree
            namespace={namespace}
            roots={roots}
            pending={tree.isPending}
            text={text}
            branch={branch}
          />
        </section>
      )}
      {editing && (
        <CategoryForm
          namespace={namespace}
          tree={roots}
          editing={editing}
          add={props.add}
          update={props.update}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('categories.delete_title')}
          message={props.deleteMessage(deleting, countBelow(deleting))}
          confirmLabel={t('actions.delete')}
          cancelLabel={t('actions.cancel')}
          busy={remove.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
        />
      )}
    </>
  );
}

interface BranchActions<Node> {
  canManage: boolean;
  collapsed: ReadonlySet<string>;
  note?: ((node: Node) => ReactNode) | undefined;
  onToggle(node: Node): void;
  onOpen?: ((node: Node) => void) | undefined;
  onAddUnder(node: Node): void;
  onEdit(node: Node): void;
  onDelete(node: Node): void;
}

/** The tree narrowed by name as you type; every branch stays open while narrowing. */
function FilteredTree<Node extends TreeNode<Node>>({
  namespace,
  roots,
  pending,
  text,
  branch,
}: {
  namespace: string;
  roots: Node[];
  pending: boolean;
  text: string;
  branch: BranchActions<Node>;
}) {
  const { t } = useTranslation(namespace);
  const needle = text.trim();
  const shown = useMemo(() => filterTree(roots, needle), [roots, needle]);
  if (pending) return <Spinner label={t('loading')} />;
  if (shown.length === 0)
    return <p className="muted">{needle ? t('categories.no_match') : t('categories.empty')}</p>;
  return <Branch namespace={namespace} nodes={shown} filtering={needle !== ''} {...branch} />;
}

/** The server's matches from `minLength` characters, or else the tree from the root or the opened category. */
function SearchedTree<Node extends TreeNode<Node>>({
  namespace,
  tree,
  search,
  text,
  canManage,
  focus,
  onFocus,
  branch,
  onEdit,
  onDelete,
}: CategoryTreeEditorProps<Node> & {
  search: NonNullable<CategoryTreeEditorProps<Node>['search']>;
  text: string;
  canManage: boolean;
  focus: ReturnType<typeof locate<Node>>;
  onFocus(id: string | null): void;
  branch: BranchActions<Node>;
  onEdit(id: string): void;
  onDelete(id: string): void;
}) {
  const { t } = useTranslation(namespace);
  const { query, onQuery, results } = search;
  useEffect(() => {
    const timer = setTimeout(() => onQuery(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, onQuery]);
  const searching = query.length >= search.minLength;
  const shown = focus ? focus.node.children : (tree.data ?? []);

  if (searching)
    return (
      <section className="card" aria-label={t('categories.results_label')}>
        <h2>{t('categories.results_title', { text: query })}</h2>
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
                      onClick={() => onEdit(match.id)}
                    >
                      {t('actions.edit')}
                    </button>
                    <button
                      type="button"
                      className="button button-small button-danger-outline"
                      aria-label={t('categories.delete_named', { name: match.name })}
                      onClick={() => onDelete(match.id)}
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
    );

  return (
    <section className="card" aria-label={t('categories.tree_label')}>
      {branch.onOpen && (
        <nav className="breadcrumb" aria-label={t('categories.breadcrumb_label')}>
          <button
            type="button"
            className="button-link"
            aria-current={focus ? undefined : 'location'}
            onClick={() => onFocus(null)}
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
                  onClick={() => onFocus(node.id)}
                >
                  {node.name}
                </button>
              </span>
            ))}
        </nav>
      )}
      {tree.isPending ? (
        <Spinner label={t('loading')} />
      ) : shown.length === 0 ? (
        <p className="muted">{focus ? t('categories.no_children') : t('categories.empty')}</p>
      ) : (
        <Branch namespace={namespace} nodes={shown} filtering={false} {...branch} />
      )}
    </section>
  );
}

/* ---------- the tree ---------- */

function Branch<Node extends TreeNode<Node>>({
  namespace,
  nodes,
  filtering,
  ...actions
}: { namespace: string; nodes: Node[]; filtering: boolean } & BranchActions<Node>) {
  const { t } = useTranslation(namespace);
  const { canManage, collapsed, note, onToggle, onOpen, onAddUnder, onEdit, onDelete } = actions;
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
              {onOpen ? (
                <button
                  type="button"
                  className="button-link category-name"
                  aria-label={t('categories.open', { name: node.name })}
                  onClick={() => onOpen(node)}
                >
                  {node.name}
                </button>
              ) : (
                <span className="category-name">{node.name}</span>
              )}
              {note?.(node)}
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
              <Branch namespace={namespace} nodes={node.children} filtering={filtering} {...actions} />
            )}
          </li>
        );
      })}
    </ul>
  );
}

/* ---------- add and edit ---------- */

function CategoryForm<Node extends TreeNode<Node>>({
  namespace,
  tree,
  editing,
  add,
  update,
  onClose,
}: {
  namespace: string;
  tree: Node[];
  editing: Editing<Node>;
  add: CategoryTreeEditorProps<Node>['add'];
  update: CategoryTreeEditorProps<Node>['update'];
  onClose(): void;
}) {
  const { t } = useTranslation(namespace);
  const notify = useNotify();
  const formId = useId();
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
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      // A refusal about one field shows at that field; any other above the form.
      if (!fields.name && !fields.parent_id) setFailure(messageOf(error));
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
          limit={TEXT_LIMITS.name}
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

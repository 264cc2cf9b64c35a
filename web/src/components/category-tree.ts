/**
 * Pure helpers over a category tree (a platform's categories, the inventory's): find a node with its ancestors,
 * count what lies under it, list it as indented options, narrow it by name. A leaf module: the tree editor, the
 * master code form and the category screens read it, and it imports nothing of theirs.
 */

export interface TreeNode<Node> {
  id: string;
  name: string;
  parent_id: string | null;
  children: Node[];
}

export interface Located<Node> {
  node: Node;
  /** From the root down to the node's parent. */
  ancestors: Node[];
}

export function locate<Node extends TreeNode<Node>>(
  nodes: readonly Node[],
  id: string,
  ancestors: Node[] = [],
): Located<Node> | null {
  for (const node of nodes) {
    if (node.id === id) return { node, ancestors };
    const found = locate(node.children, id, [...ancestors, node]);
    if (found) return found;
  }
  return null;
}

export const countBelow = <Node extends TreeNode<Node>>(node: Node): number =>
  node.children.reduce((total, child) => total + 1 + countBelow(child), 0);

/** Every category in tree order, indented by depth, leaving out `skip` and everything under it. */
export function categoryOptions<Node extends TreeNode<Node>>(
  nodes: readonly Node[],
  skip?: string,
  depth = 0,
): { value: string; label: string }[] {
  return nodes.flatMap((node) =>
    node.id === skip
      ? []
      : [
          { value: node.id, label: `${'\u2014 '.repeat(depth)}${node.name}` },
          ...categoryOptions(node.children, skip, depth + 1),
        ],
  );
}

/** The nodes whose name contains `text`, with their ancestors so they stay in place. */
export function filterTree<Node extends TreeNode<Node>>(nodes: readonly Node[], text: string): Node[] {
  if (!text) return [...nodes];
  const needle = text.toLocaleLowerCase();
  return nodes.flatMap((node) => {
    const children = filterTree(node.children, text);
    return node.name.toLocaleLowerCase().includes(needle) || children.length > 0
      ? [{ ...node, children }]
      : [];
  });
}

/**
 * Paths the spec names (shell.md §2) for screens the console serves under another path. Each answers at the spec's
 * path too, by a redirect that keeps the query: bookmarks, links in mail and the spec's own wording all land. The
 * catch-all route asks here before it shows the 404 page, which is how a pattern React Router cannot express as a
 * route (`/{product}-webstore/category`, a parameter inside a segment) answers as well.
 */
const SPEC_PATHS: readonly { from: RegExp; to: string }[] = [
  { from: /^\/good-receive-note\/list\/?$/, to: '/inventory/goods-receive-notes' },
  { from: /^\/good-issue-note\/list\/?$/, to: '/inventory/goods-issue-notes' },
  { from: /^\/[^/]+-webstore\/category\/?$/, to: '/webstore/category' },
];

/** Where the console serves a spec path, or null when the path is not one of them. */
export function specPathTarget(pathname: string): string | null {
  return SPEC_PATHS.find((path) => path.from.test(pathname))?.to ?? null;
}

/**
 * The namespace of an i18n key written `ns:key` (the default namespace otherwise). A leaf module: the shell's page
 * helpers use it, and importing it from the route table (which imports every screen) made the shell and the
 * screens import one another.
 */
export const namespaceOf = (key: string) => (key.includes(':') ? key.slice(0, key.indexOf(':')) : 'common');

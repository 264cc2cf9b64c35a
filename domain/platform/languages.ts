/** The console's languages (spec §1 and §9): what a user may choose, and what server messages are written in. */
export const LANGUAGES = ['en-us', 'zh-cn', 'th-th', 'id-id', 'vi-vn', 'en-ph'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en-us';

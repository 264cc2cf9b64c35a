/**
 * The console's constants of spec §9 in one place: storage keys, the login address, notification and
 * new-version timings, the screen-file load timeout and the sign-up rules.
 */

/** localStorage: the session token (the session marker of spec §9). */
export const TOKEN_KEY = 'token';
/** localStorage: the interface language. */
export const LANGUAGE_KEY = 'language';
/** sessionStorage: the permission map of the signed-in user. */
export const PERMISSION_KEY = 'permission';

export const LOGIN_PATH = '/login';
export const ADMIN_LOGIN_PATH = '/admin-login/';
/** The provider's admin area lives under /admin-…; its sessions end on the admin login, the rest on the login. */
export const loginPathFor = (route: string) => (route.startsWith('/admin-') ? ADMIN_LOGIN_PATH : LOGIN_PATH);

/** How long a notification stays at the top before it closes by itself. */
export const NOTIFICATION_MS = 10_000;
/** How often the console asks whether a new version was deployed (20 minutes). */
export const VERSION_CHECK_MS = 1_200_000;
/** After this long (24 hours) since the page loaded, a new version reloads the page instead of asking. */
export const VERSION_FORCE_MS = 86_400_000;
/** A screen's script that has not loaded after this long is a load error. */
export const SCREEN_LOAD_TIMEOUT_MS = 120_000;

/**
 * The header menu's help entries (spec §2, "Sidebar and header"): the provider's help centre, system training and
 * online demo booking, opened in a new tab (the spec's public /training and /demo-booking pages are the provider's).
 */
export const HELP_LINKS = {
  help_center: 'https://help.kedai.app/',
  training: 'https://help.kedai.app/training',
  demo: 'https://kedai.app/demo-booking',
} as const;

export {
  OTP_LENGTH,
  POS_PIN_LENGTH,
  passwordFollowsRule as passwordIsStrong,
  SUPPORTED_COUNTRIES as SIGN_UP_COUNTRIES,
} from '@domain/access/sign-up';

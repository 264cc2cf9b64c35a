// The console's Content-Security-Policy forbids eval (api/security.ts). zod compiles its object parsers with
// Function() unless told not to, and it probes for eval as each schema is built, when the console's modules load.
// This classic script runs before any module, so zod finds the setting in its global configuration from the start.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig ?? {}, { jitless: true });

import { parse } from 'yaml';

/** The parts of a compose service this project reads. */
export interface ComposeService {
  image?: string;
  build?: unknown;
  profiles?: string[];
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  deploy?: { replicas?: number };
  depends_on?: Record<string, { condition: string; required?: boolean }>;
  healthcheck?: { test: string[] };
}

export interface ComposeFile {
  name?: string;
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
  configs?: Record<string, { content?: string }>;
}

export class ComposeInterpolationError extends Error {}

// ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error}, ${NAME:+alt}, ${NAME+alt}, $NAME, $$.
const REFERENCE = /\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])((?:[^{}]|\{[^{}]*\})*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/**
 * One string as compose interpolates it (the Compose specification's "Interpolation"): a variable that
 * is empty counts as unset for the `:` forms only, and `$$` is a literal `$`.
 */
export function interpolate(text: string, variables: Readonly<Record<string, string | undefined>>): string {
  return text.replace(REFERENCE, (whole, braced: string | undefined, operator: string | undefined, argument = '', bare: string | undefined) => {
    if (whole === '$$') return '$';
    const name = (braced ?? bare)!;
    const value = variables[name];
    const missing = operator?.startsWith(':') ? !value : value === undefined;
    switch (operator?.replace(':', '')) {
      case '-':
        return missing ? interpolate(argument, variables) : value!;
      case '?':
        if (missing) throw new ComposeInterpolationError(`required variable ${name} is missing a value: ${argument}`);
        return value!;
      case '+':
        return missing ? '' : interpolate(argument, variables);
      default:
        return value ?? '';
    }
  });
}

/** A `.env` file as compose reads it: NAME=value lines, `#` comments, optional quotes around a value. */
export function parseEnvFile(text: string): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith('#')) continue;
    const [, name, raw] = match;
    const quoted = /^(['"])(.*)\1$/.exec(raw!);
    variables[name!] = quoted ? quoted[2]! : raw!.replace(/\s+#.*$/, '');
  }
  return variables;
}

/** The YAML with its `<<` merges applied and nothing interpolated: what the schema validates. */
export function parseComposeYaml(text: string): unknown {
  return parse(text, { merge: true });
}

/**
 * The compose file as `docker compose config` resolves it: merges applied, every string interpolated
 * with `variables`, and only the services of the active profiles (COMPOSE_PROFILES among the variables).
 */
export function resolveCompose(text: string, variables: Readonly<Record<string, string | undefined>>): ComposeFile {
  const file = interpolateStrings(parseComposeYaml(text), variables) as ComposeFile;
  const active = new Set((variables.COMPOSE_PROFILES ?? '').split(',').map((profile) => profile.trim()).filter(Boolean));
  const services = Object.entries(file.services).filter(([, service]) => !service.profiles || service.profiles.some((profile) => active.has(profile)));
  return { ...file, services: Object.fromEntries(services) };
}

function interpolateStrings(value: unknown, variables: Readonly<Record<string, string | undefined>>): unknown {
  if (typeof value === 'string') return interpolate(value, variables);
  if (Array.isArray(value)) return value.map((item) => interpolateStrings(item, variables));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateStrings(item, variables)]));
  }
  return value;
}

// Pure helpers of the Skill LSP extension: no `vscode` import here, so that
// `node --test` can exercise them outside the editor.

import * as path from 'node:path';

/** Server command ids (docs/server.md, "Commands"). */
export const SERVER_COMMANDS = {
  previewActivation: 'skill-lsp.previewActivation',
  previewCatalog: 'skill-lsp.previewCatalog',
  status: 'skill-lsp.status',
  fixAll: 'skill-lsp.fixAll',
} as const;

/** Client (VS Code) command ids contributed in package.json. */
export const CLIENT_COMMANDS = {
  previewActivation: 'skillLsp.previewActivation',
  previewCatalog: 'skillLsp.previewCatalog',
  restartServer: 'skillLsp.restartServer',
  showOutput: 'skillLsp.showOutput',
  useSkillLspOnly: 'skillLsp.useSkillLspOnly',
} as const;

export const PREVIEW_SCHEME = 'skill-lsp-preview';
export const STATUS_NOTIFICATION = 'skillLsp/status';
export const CONFIG_SECTION = 'skillLsp';

// ---------------------------------------------------------------------------
// Dialects

export interface DialectInfo {
  id: string;
  label: string;
  detail: string;
}

/** Preview dialects, in the order of docs/server.md. */
export const DIALECTS: readonly DialectInfo[] = [
  { id: 'skill-tool', label: 'skill-tool', detail: 'The skill-tool harness' },
  { id: 'dsh', label: 'dsh', detail: 'The dsh harness' },
  { id: 'agentskills', label: 'agentskills', detail: 'The agentskills.io reference client' },
  { id: 'claude-code', label: 'claude-code', detail: 'Claude Code' },
  { id: 'codex', label: 'codex', detail: 'OpenAI Codex CLI' },
  { id: 'opencode', label: 'opencode', detail: 'opencode' },
  { id: 'gemini', label: 'gemini', detail: 'Gemini CLI' },
  { id: 'copilot', label: 'copilot', detail: 'GitHub Copilot CLI' },
];

/**
 * Target harnesses (`skillLsp.targets`, `skillLsp.profile`), as the engine's harness table
 * lists them (`skill-lsp harnesses`); tests/cli/test_editor_defaults.py keeps them equal.
 */
export const TARGETS: readonly string[] = ['skill-tool', 'agentskills', 'claude-code', 'codex', 'opencode', 'gemini', 'copilot', 'vscode', 'dsh', 'goose', 'openhands'];

export function isDialect(value: unknown): value is string {
  return typeof value === 'string' && DIALECTS.some((d) => d.id === value);
}

/**
 * Dialects for a QuickPick, the configured default first (and marked), the
 * others in their usual order. An unknown default falls back to `skill-tool`.
 */
export function orderedDialects(defaultDialect: unknown): Array<DialectInfo & { isDefault: boolean }> {
  const def = isDialect(defaultDialect) ? defaultDialect : 'skill-tool';
  const first = DIALECTS.filter((d) => d.id === def);
  const rest = DIALECTS.filter((d) => d.id !== def);
  return [...first, ...rest].map((d) => ({ ...d, isDefault: d.id === def }));
}

// ---------------------------------------------------------------------------
// Skill files

/** True for a path or URI whose base name is SKILL.md or skill.md. */
export function isSkillFile(pathOrUri: string): boolean {
  const clean = pathOrUri.split(/[?#]/)[0] ?? '';
  const base = clean.split(/[\\/]/).pop() ?? '';
  let decoded = base;
  try {
    decoded = decodeURIComponent(base);
  } catch {
    // keep the raw name
  }
  return decoded === 'SKILL.md' || decoded === 'skill.md';
}

// ---------------------------------------------------------------------------
// VS Code's own SKILL.md support

/**
 * The language VS Code (1.139+, built-in extension prompt-basics: `filenames:
 * ["SKILL.md"]`) gives SKILL.md. Its completions, hovers, links, code actions
 * and checks (the workbench contribution chat.promptLanguageFeatures) are
 * registered for this language id with no setting of their own: a SKILL.md in
 * another language gets none of them. VS Code's agent finds skills by reading
 * their folders, whatever the editor's language.
 */
export const BUILTIN_SKILL_LANGUAGE = 'skill';

/**
 * The `files.associations` entry that hands SKILL.md to Markdown, where only
 * skill-lsp completes and checks it. VS Code compares file names without case,
 * so skill.md is covered too.
 */
export const SKILL_LSP_ONLY_ASSOCIATION: Readonly<[pattern: string, language: string]> = ['SKILL.md', 'markdown'];

/** globalState key: the offer to turn VS Code's own SKILL.md support off was made. */
export const BUILTIN_OFFER_KEY = 'skillLsp.builtinSkillSupportOffered';

/** The offer, shown once while skill-lsp runs and a SKILL.md has VS Code's `skill` language. */
export const BUILTIN_OFFER_MESSAGE =
  "VS Code's own SKILL.md support is on beside Skill LSP: every completion appears twice and VS Code adds " +
  "checks of its own (one duplicates DUPLICATE_KEY, one reports a link with a title as a missing file). " +
  'Let Skill LSP alone complete and check SKILL.md? (Sets "files.associations": {"SKILL.md": "markdown"} ' +
  "in your user settings; VS Code's agent still loads your skills.)";
export const BUILTIN_OFFER_ACCEPT = 'Use Skill LSP Only';
export const BUILTIN_OFFER_DECLINE = 'Keep Both';

/** Whether an open document is a SKILL.md that VS Code's own skill support is handling. */
export function builtinSkillSupportHandles(doc: { languageId: string; path: string }): boolean {
  return doc.languageId === BUILTIN_SKILL_LANGUAGE && isSkillFile(doc.path);
}

/** The user's `files.associations` with SKILL.md handed to Markdown (the others kept). */
export function withSkillLspOnly(current: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (current && typeof current === 'object' && !Array.isArray(current)) {
    for (const [k, v] of Object.entries(current)) if (typeof v === 'string') out[k] = v;
  }
  const [pattern, language] = SKILL_LSP_ONLY_ASSOCIATION;
  out[pattern] = language;
  return out;
}

// ---------------------------------------------------------------------------
// Activation arguments

/**
 * Split a command line the way a POSIX shell would for simple words: blanks
 * separate words, single and double quotes group, a backslash escapes the next
 * character outside single quotes.
 */
export function shellSplit(input: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i] as string;
    if (quote) {
      if (ch === quote) {
        quote = null;
      } else if (ch === '\\' && quote === '"' && i + 1 < input.length && /["\\$`]/.test(input[i + 1] as string)) {
        cur += input[++i];
      } else {
        cur += ch;
      }
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < input.length) {
      cur += input[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) {
        words.push(cur);
        cur = '';
        inWord = false;
      }
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote) {
    throw new Error(`unterminated ${quote} quote`);
  }
  if (inWord) {
    words.push(cur);
  }
  return words;
}

const ARG_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * Turn what the user typed in the "arguments" InputBox into the `arguments`
 * field of `skill-lsp.previewActivation`:
 *  - blank → undefined (no arguments);
 *  - a JSON object of strings → that object (non-string values are stringified);
 *  - `key=value key2="two words"` (every word a key=value pair) → an object;
 *  - anything else → the raw string, as the harness would receive `$ARGUMENTS`.
 */
export function parseActivationArguments(input: string | undefined): string | Record<string, string> | undefined {
  if (input === undefined) {
    return undefined;
  }
  const trimmed = input.trim();
  if (trimmed === '') {
    return undefined;
  }
  if (trimmed.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
          out[k] = typeof v === 'string' ? v : JSON.stringify(v);
        }
        return out;
      }
    } catch {
      // not JSON: fall through to the other forms
    }
  }
  let words: string[];
  try {
    words = shellSplit(trimmed);
  } catch {
    return input;
  }
  if (words.length > 0 && words.every((w) => w.includes('=') && ARG_KEY.test(w.slice(0, w.indexOf('='))))) {
    const out: Record<string, string> = {};
    for (const w of words) {
      const eq = w.indexOf('=');
      out[w.slice(0, eq)] = w.slice(eq + 1);
    }
    return out;
  }
  return input;
}

// ---------------------------------------------------------------------------
// Preview URIs

export type PreviewKind = 'activation' | 'catalog';

export interface PreviewRequest {
  kind: PreviewKind;
  dialect: string;
  /** URI of the SKILL.md (activation) or of the document the catalog is for. */
  uri?: string;
  /** Skill name, when previewing by name. */
  name?: string;
  arguments?: string | Record<string, string>;
  asUser?: boolean;
}

/** Components of a URI in the shape of `vscode.Uri.from(...)`. */
export interface UriComponents {
  scheme: string;
  authority: string;
  path: string;
  query: string;
  fragment: string;
}

function skillNameFromUri(uri: string | undefined): string | undefined {
  if (!uri) {
    return undefined;
  }
  const clean = uri.split(/[?#]/)[0] ?? '';
  const parts = clean.split(/[\\/]/).filter(Boolean);
  if (parts.length >= 2 && isSkillFile(clean)) {
    try {
      return decodeURIComponent(parts[parts.length - 2] as string);
    } catch {
      return parts[parts.length - 2];
    }
  }
  return undefined;
}

function safeSegment(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'skill';
}

/**
 * A `skill-lsp-preview:` URI for a preview request. The path gives a readable
 * tab title (`/activation/<skill> (<dialect>).md`); the query holds the whole
 * request as JSON so that the content provider can re-run it (on save).
 */
export function encodePreviewUri(req: PreviewRequest): UriComponents {
  const who = req.kind === 'activation' ? (req.name ?? skillNameFromUri(req.uri) ?? 'skill') : 'catalog';
  const title = req.kind === 'activation' ? `${safeSegment(who)} (${safeSegment(req.dialect)}).md` : `catalog (${safeSegment(req.dialect)}).md`;
  const payload: PreviewRequest = { kind: req.kind, dialect: req.dialect };
  if (req.uri !== undefined) payload.uri = req.uri;
  if (req.name !== undefined) payload.name = req.name;
  if (req.arguments !== undefined) payload.arguments = req.arguments;
  if (req.asUser !== undefined) payload.asUser = req.asUser;
  return {
    scheme: PREVIEW_SCHEME,
    authority: '',
    path: `/${req.kind}/${title}`,
    query: JSON.stringify(payload),
    fragment: '',
  };
}

/** Inverse of {@link encodePreviewUri}; undefined when the query is not ours. */
export function decodePreviewUri(uri: Pick<UriComponents, 'scheme' | 'query'>): PreviewRequest | undefined {
  if (uri.scheme !== PREVIEW_SCHEME) {
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(uri.query);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object') {
    return undefined;
  }
  const p = parsed as Record<string, unknown>;
  if ((p.kind !== 'activation' && p.kind !== 'catalog') || typeof p.dialect !== 'string') {
    return undefined;
  }
  const req: PreviewRequest = { kind: p.kind, dialect: p.dialect };
  if (typeof p.uri === 'string') req.uri = p.uri;
  if (typeof p.name === 'string') req.name = p.name;
  if (typeof p.arguments === 'string') {
    req.arguments = p.arguments;
  } else if (p.arguments && typeof p.arguments === 'object' && !Array.isArray(p.arguments)) {
    req.arguments = Object.fromEntries(Object.entries(p.arguments as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
  }
  if (typeof p.asUser === 'boolean') req.asUser = p.asUser;
  return req;
}

/** The `workspace/executeCommand` request for a preview. */
export function previewCommand(req: PreviewRequest): { command: string; arguments: [Record<string, unknown>] } {
  if (req.kind === 'activation') {
    const arg: Record<string, unknown> = { dialect: req.dialect };
    if (req.uri !== undefined) arg.uri = req.uri;
    if (req.name !== undefined) arg.name = req.name;
    if (req.arguments !== undefined) arg.arguments = req.arguments;
    if (req.asUser !== undefined) arg.asUser = req.asUser;
    return { command: SERVER_COMMANDS.previewActivation, arguments: [arg] };
  }
  const arg: Record<string, unknown> = { dialect: req.dialect };
  if (req.uri !== undefined) arg.uri = req.uri;
  return { command: SERVER_COMMANDS.previewCatalog, arguments: [arg] };
}

/**
 * The preview request behind a server command a code lens (or anything else)
 * runs, or undefined when the command is not a preview.
 */
export function previewRequestFromServerCommand(
  command: string,
  args: readonly unknown[] | undefined,
  defaultDialect: string,
): PreviewRequest | undefined {
  let kind: PreviewKind;
  if (command === SERVER_COMMANDS.previewActivation) {
    kind = 'activation';
  } else if (command === SERVER_COMMANDS.previewCatalog) {
    kind = 'catalog';
  } else {
    return undefined;
  }
  const a0 = args && args.length > 0 && args[0] && typeof args[0] === 'object' ? (args[0] as Record<string, unknown>) : {};
  const req: PreviewRequest = { kind, dialect: isDialect(a0.dialect) ? a0.dialect : defaultDialect };
  if (typeof a0.uri === 'string') req.uri = a0.uri;
  if (kind === 'activation') {
    if (typeof a0.name === 'string') req.name = a0.name;
    if (typeof a0.arguments === 'string') req.arguments = a0.arguments;
    else if (a0.arguments && typeof a0.arguments === 'object') req.arguments = a0.arguments as Record<string, string>;
    if (typeof a0.asUser === 'boolean') req.asUser = a0.asUser;
  }
  return req;
}

/** The text to show for a preview result (tolerates a server that answers oddly). */
export function previewText(result: unknown): string {
  if (result && typeof result === 'object' && typeof (result as { text?: unknown }).text === 'string') {
    return (result as { text: string }).text;
  }
  if (typeof result === 'string') {
    return result;
  }
  return `skill-lsp returned no preview text:\n\n${JSON.stringify(result, null, 2)}\n`;
}

/**
 * What to say beside a preview whose text is not proven against the harness's real release
 * (`verified: false`): the text itself stays byte for byte what the server rendered.
 */
export function previewNotice(result: unknown): string | undefined {
  if (!result || typeof result !== 'object') return undefined;
  const r = result as { verified?: unknown; proof?: unknown; dialect?: unknown };
  if (r.verified !== false) return undefined;
  const dialect = typeof r.dialect === 'string' ? r.dialect : 'this dialect';
  const proof = typeof r.proof === 'string' && r.proof ? ` (${r.proof})` : '';
  return `Skill LSP: the ${dialect} preview is documented, not verified against a release${proof}.`;
}

// ---------------------------------------------------------------------------
// Status bar

export interface ServerStatus {
  profile?: string;
  /** Configured targets; an empty list means "inferred per skill from its root". */
  targets?: string[];
  skills?: number;
  scanning?: boolean;
  version?: string;
  roots?: string[];
  /** Harness releases found on PATH; `differs`: not the release skill-lsp's facts were proven on. */
  installed?: InstalledHarness[];
}

export interface InstalledHarness {
  harness: string;
  version?: string | null;
  proven?: string | null;
  differs?: boolean;
}

/** Installed harnesses whose release is not the one proven: "claude-code 2.2.0 (proven: 2.1.332)". */
export function differingHarnesses(status: ServerStatus | undefined): string[] {
  return (status?.installed ?? []).filter((i) => i.differs).map((i) => `${i.harness} ${i.version} (proven: ${i.proven})`);
}

export function statusBarText(status: ServerStatus | undefined, state: 'starting' | 'running' | 'stopped' | 'failed'): string {
  if (state === 'failed') return '$(error) Skill LSP';
  if (state === 'stopped') return '$(circle-slash) Skill LSP';
  if (!status || state === 'starting') return '$(sync~spin) Skill LSP';
  const n = typeof status.skills === 'number' ? status.skills : 0;
  const count = `${n} skill${n === 1 ? '' : 's'}`;
  const icon = status.scanning ? '$(sync~spin)' : '$(book)';
  const warn = differingHarnesses(status).length > 0 ? ' $(warning)' : '';
  return `${icon} ${targetsLabel(status)} · ${count}${warn}`;
}

/** What the lint checks for: the configured targets, "targets by root", or (older servers) the profile. */
export function targetsLabel(status: ServerStatus): string {
  if (Array.isArray(status.targets)) return status.targets.length > 0 ? status.targets.join(',') : 'targets by root';
  return status.profile ?? 'skill-tool';
}

export function statusBarTooltip(status: ServerStatus | undefined): string {
  if (!status) return 'Skill LSP';
  const lines = [`Skill LSP${status.version ? ` ${status.version}` : ''}`, `Targets: ${targetsLabel(status)}`, `Skills: ${status.skills ?? 0}`];
  if (status.roots && status.roots.length > 0) lines.push(`Roots: ${status.roots.join(', ')}`);
  if (status.scanning) lines.push('Scanning…');
  for (const d of differingHarnesses(status)) {
    lines.push(`Installed ${d}: previews may differ; check with skill-lsp capture`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------
// Settings

/** The keys of the `skillLsp` section the server reads. */
export const SERVER_SETTING_KEYS = [
  'profile',
  'targets',
  'roots',
  'dialect',
  'severity',
  'checkLinks',
  'select',
  'extendSelect',
  'ignore',
  'sensitivePatterns',
  'debounceMs',
] as const;

/**
 * The `skillLsp` settings the server understands (docs/server.md), without the
 * client-only keys (`server.path`, `trace.server`).
 */
export function serverSettings(all: Record<string, unknown> | undefined | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!all) return out;
  for (const key of SERVER_SETTING_KEYS) {
    if (all[key] !== undefined) out[key] = all[key];
  }
  return out;
}

/** The shape of `WorkspaceConfiguration.inspect()` that matters here. */
export interface SettingInspection {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * The settings to hand the server: only those the user actually set (folder >
 * workspace > user), so that the package.json defaults do not shadow the
 * workspace's `.skill-lsp.toml` / `[tool.skill-lsp]`, which the server merges
 * below the client's settings.
 */
export function explicitServerSettings(inspect: (key: string) => SettingInspection | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of SERVER_SETTING_KEYS) {
    const i = inspect(key);
    if (!i) continue;
    const value = i.workspaceFolderValue ?? i.workspaceValue ?? i.globalValue;
    if (value !== undefined) out[key] = value;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Server resolution

export interface ServerCommand {
  /** Where the command came from, for logs and messages. */
  source: 'setting' | 'python' | 'bundled' | 'path';
  command: string;
  args: string[];
}

/** Expand `~` and `${workspaceFolder}` / `${userHome}` / `${env:NAME}` in a configured path. */
export function expandPath(p: string, ctx: { home: string; workspaceFolder?: string; env: Record<string, string | undefined> }): string {
  let out = p.trim();
  out = out.replace(/\$\{userHome\}/g, ctx.home);
  out = out.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => ctx.env[name] ?? '');
  if (ctx.workspaceFolder !== undefined) out = out.replace(/\$\{workspaceFolder\}/g, ctx.workspaceFolder);
  if (out === '~') out = ctx.home;
  else if (out.startsWith('~/') || out.startsWith('~\\')) out = path.join(ctx.home, out.slice(2));
  return out;
}

/** Find an executable on a PATH string. */
export function findOnPath(
  name: string,
  envPath: string | undefined,
  isExecutable: (p: string) => boolean,
  platform: NodeJS.Platform = process.platform,
  pathExt: string | undefined = process.env.PATHEXT,
): string | undefined {
  if (!envPath) return undefined;
  const sep = platform === 'win32' ? ';' : ':';
  const exts = platform === 'win32' ? (pathExt ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean).concat(['']) : [''];
  const join = (dir: string, file: string): string => (platform === 'win32' ? path.win32.join(dir, file) : path.posix.join(dir, file));
  for (const dir of envPath.split(sep)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

export interface ResolveEnv {
  /** `skillLsp.server.path`, already expanded; empty when unset. */
  configuredPath: string;
  /** The interpreter selected in the Python extension, if any. */
  pythonInterpreter?: string;
  /** Whether a Python interpreter may be run (false in untrusted workspaces for a workspace-local interpreter). */
  allowPython: boolean;
  envPath: string | undefined;
  isExecutable: (p: string) => boolean;
  /** Quick check that the interpreter can import skill_lsp. */
  probePython: (python: string) => Promise<boolean>;
  /** The server carried by a platform .vsix (bundled/manifest.json), if any. */
  bundle?: Bundle;
  /** Which Python an interpreter is (for the bundle); undefined when it does not run. */
  probePythonVersion?: (python: string) => Promise<PythonVersion | undefined>;
  platform?: NodeJS.Platform;
  log?: (msg: string) => void;
}

export type ResolveResult =
  | { ok: true; server: ServerCommand; tried: string[] }
  | { ok: false; tried: string[]; pythonsSeen?: string[] };

/** skill-lsp vendored into a platform .vsix by scripts/bundle-server.py. */
export interface Bundle {
  /** Absolute path of bundled/libs (holds common/ and one folder per interpreter tag). */
  libs: string;
  /** Interpreter tags that have a folder under libs, e.g. ["cp310", "cp311"]. */
  pythons: string[];
  /** The oldest Python the bundle supports, e.g. "3.10". */
  minPython: string;
}

export interface PythonVersion {
  /** sys.implementation.name */
  implementation: string;
  major: number;
  minor: number;
}

/** Parse the bundle's manifest.json; undefined when it is not a usable manifest. */
export function parseBundleManifest(json: unknown, libs: string): Bundle | undefined {
  if (!json || typeof json !== 'object') return undefined;
  const m = json as { pythons?: unknown; minPython?: unknown };
  if (!Array.isArray(m.pythons) || typeof m.minPython !== 'string') return undefined;
  const pythons = m.pythons.filter((t): t is string => typeof t === 'string' && /^cp3\d+$/.test(t));
  if (pythons.length === 0 || !/^3\.\d+$/.test(m.minPython)) return undefined;
  return { libs, pythons, minPython: m.minPython };
}

/** `python -c` program that puts the bundle first on sys.path and runs `skill-lsp serve`. */
export const BUNDLE_BOOT =
  "import sys; sys.path[0:0] = sys.argv[1:]; del sys.argv[1:]; from skill_lsp.cli import main; sys.exit(main(['serve']))";

function tagRange(tags: readonly string[]): string {
  const v = tags.map((t) => `3.${t.slice(3)}`);
  return v.length > 1 ? `${v[0]}–${v[v.length - 1]}` : (v[0] ?? '');
}

/** Whether the bundle can run on this Python: its interpreter tag, or why not. */
export function bundleTagFor(bundle: Bundle, v: PythonVersion | undefined): { ok: true; tag: string } | { ok: false; reason: string } {
  if (!v) return { ok: false, reason: 'does not run' };
  const [minMajor, minMinor] = bundle.minPython.split('.').map(Number) as [number, number];
  const version = `${v.major}.${v.minor}`;
  if (v.implementation !== 'cpython') return { ok: false, reason: `is ${v.implementation} ${version}; the bundled server needs CPython` };
  if (v.major < minMajor || (v.major === minMajor && v.minor < minMinor)) {
    return { ok: false, reason: `is Python ${version}; the bundled server needs Python ${bundle.minPython} or newer` };
  }
  const tag = `cp${v.major}${v.minor}`;
  if (!bundle.pythons.includes(tag)) {
    return { ok: false, reason: `is Python ${version}; this extension carries the server for Python ${tagRange(bundle.pythons)}` };
  }
  return { ok: true, tag };
}

/** The command that runs the bundled server with `python`. */
export function bundledServer(bundle: Bundle, python: string, tag: string, platform: NodeJS.Platform = process.platform): ServerCommand {
  const join = (...parts: string[]): string => (platform === 'win32' ? path.win32.join(...parts) : path.posix.join(...parts));
  // -I: ignore PYTHONPATH and the user site, so the bundle's own libraries are the ones imported.
  return { source: 'bundled', command: python, args: ['-I', '-c', BUNDLE_BOOT, join(bundle.libs, tag), join(bundle.libs, 'common')] };
}

/**
 * Pick the server command, in the documented order:
 *  1. `skillLsp.server.path` (an executable, run as `<path> serve`);
 *  2. the Python extension's interpreter, `-m skill_lsp serve`, once
 *     `-c "import skill_lsp"` succeeds;
 *  3. the server bundled in a platform .vsix, run by the first CPython >= the
 *     bundle's minimum: the Python extension's interpreter, then python3 /
 *     python on PATH;
 *  4. `skill-lsp` on PATH.
 */
export async function resolveServerCommand(env: ResolveEnv): Promise<ResolveResult> {
  const tried: string[] = [];
  const log = env.log ?? (() => undefined);
  if (env.configuredPath) {
    if (env.isExecutable(env.configuredPath)) {
      return { ok: true, server: { source: 'setting', command: env.configuredPath, args: ['serve'] }, tried };
    }
    tried.push(`skillLsp.server.path = ${env.configuredPath} (not an executable file)`);
    log(`skillLsp.server.path ${env.configuredPath} is not an executable file; trying the next candidate`);
  }
  if (env.pythonInterpreter) {
    if (!env.allowPython) {
      tried.push(`Python interpreter ${env.pythonInterpreter} (skipped: workspace not trusted)`);
    } else if (await env.probePython(env.pythonInterpreter)) {
      return { ok: true, server: { source: 'python', command: env.pythonInterpreter, args: ['-m', 'skill_lsp', 'serve'] }, tried };
    } else {
      tried.push(`Python interpreter ${env.pythonInterpreter} (cannot import skill_lsp)`);
    }
  }
  const pythonsSeen: string[] = [];
  if (env.bundle && env.probePythonVersion) {
    const platform = env.platform ?? process.platform;
    const candidates: string[] = [];
    if (env.pythonInterpreter && env.allowPython) candidates.push(env.pythonInterpreter);
    for (const name of platform === 'win32' ? ['python', 'python3'] : ['python3', 'python']) {
      const found = findOnPath(name, env.envPath, env.isExecutable, platform);
      if (found && !candidates.includes(found)) candidates.push(found);
    }
    for (const python of candidates) {
      const v = await env.probePythonVersion(python);
      const fit = bundleTagFor(env.bundle, v);
      if (fit.ok) return { ok: true, server: bundledServer(env.bundle, python, fit.tag, platform), tried };
      tried.push(`${python} for the bundled server (${fit.reason})`);
      pythonsSeen.push(v ? `${python}: ${v.implementation === 'cpython' ? 'Python' : v.implementation} ${v.major}.${v.minor}` : `${python}: does not run`);
    }
    if (candidates.length === 0) tried.push('a Python for the bundled server (no python3 on PATH, no interpreter from the Python extension)');
  }
  const onPath = findOnPath('skill-lsp', env.envPath, env.isExecutable, env.platform ?? process.platform);
  if (onPath) {
    return { ok: true, server: { source: 'path', command: onPath, args: ['serve'] }, tried };
  }
  tried.push('skill-lsp on PATH (not found)');
  return env.bundle ? { ok: false, tried, pythonsSeen } : { ok: false, tried };
}

/** The one notification shown when no server can be found. */
export function serverNotFoundMessage(pythonInterpreter: string | undefined, bundle?: { minPython: string; pythonsSeen: string[] }): string {
  if (bundle) {
    const seen = bundle.pythonsSeen.length ? `found ${bundle.pythonsSeen.join(', ')}` : 'no python3 on PATH';
    return (
      `Skill LSP: the bundled skill-lsp server needs Python ${bundle.minPython} or newer (${seen}). ` +
      `Install Python ${bundle.minPython}+ or select one with "Python: Select Interpreter", ` +
      'or install the server ("pipx install skill-lsp") or set "skillLsp.server.path" to the skill-lsp executable.'
    );
  }
  const pip = pythonInterpreter ? `"${pythonInterpreter}" -m pip install skill-lsp` : 'pip install skill-lsp into the selected Python interpreter';
  return (
    'Skill LSP: the skill-lsp language server was not found. Install it with "pipx install skill-lsp" ' +
    `(or ${pip}), or set "skillLsp.server.path" to the skill-lsp executable.`
  );
}

/** Whether a path lies inside one of the given folders. */
export function isInside(child: string, folders: readonly string[]): boolean {
  const c = path.resolve(child);
  return folders.some((f) => {
    const rel = path.relative(path.resolve(f), c);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
}

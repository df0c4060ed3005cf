import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  type LanguageClientOptions,
  RevealOutputChannelOn,
  type ServerOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';
import {
  BUILTIN_OFFER_ACCEPT,
  BUILTIN_OFFER_DECLINE,
  BUILTIN_OFFER_KEY,
  BUILTIN_OFFER_MESSAGE,
  type Bundle,
  CLIENT_COMMANDS,
  type PythonVersion,
  CONFIG_SECTION,
  PREVIEW_SCHEME,
  type PreviewRequest,
  SERVER_COMMANDS,
  STATUS_NOTIFICATION,
  type ServerCommand,
  type ServerStatus,
  decodePreviewUri,
  encodePreviewUri,
  expandPath,
  isDialect,
  isInside,
  isSkillFile,
  orderedDialects,
  parseBundleManifest,
  parseActivationArguments,
  previewCommand,
  previewRequestFromServerCommand,
  previewNotice,
  previewText,
  resolveServerCommand,
  serverNotFoundMessage,
  explicitServerSettings,
  builtinSkillSupportHandles,
  withSkillLspOnly,
  statusBarText,
  statusBarTooltip,
} from './lib';

const SKILL_GLOB = '**/{SKILL,skill}.md';

let output: vscode.LogOutputChannel;
let traceChannel: vscode.LogOutputChannel;
let client: LanguageClient | undefined;
let statusItem: vscode.StatusBarItem;
let lastStatus: ServerStatus | undefined;
let previews: PreviewProvider;
let notFoundShown = false;
let starting: Promise<void> | undefined;

function log(msg: string): void {
  output.info(msg);
}

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(CONFIG_SECTION);
}

function defaultDialect(): string {
  const d = config().get<string>('dialect');
  return isDialect(d) ? d : 'skill-tool';
}

/** The settings the user set (for the folder of `scope`), see explicitServerSettings. */
function currentServerSettings(scope?: vscode.Uri): Record<string, unknown> {
  const cfg = vscode.workspace.getConfiguration(CONFIG_SECTION, scope ?? null);
  return explicitServerSettings((key) => cfg.inspect(key));
}

/**
 * The LSP trace channel. vscode-languageclient 11 traces only while its
 * channel's log level is Trace; this adapter reports Trace whenever
 * `skillLsp.trace.server` is not "off", so the documented setting works
 * without touching the channel's log level, and writes to a plain channel.
 */
function createTraceChannel(): vscode.LogOutputChannel {
  const plain = vscode.window.createOutputChannel('Skill LSP Trace');
  const emitter = new vscode.EventEmitter<vscode.LogLevel>();
  const level = (): vscode.LogLevel =>
    config().get<string>('trace.server', 'off') === 'off' ? vscode.LogLevel.Info : vscode.LogLevel.Trace;
  let current = level();
  const sub = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('skillLsp.trace.server') && level() !== current) {
      current = level();
      emitter.fire(current);
    }
  });
  const line = (tag: string, msg: string | Error): void =>
    plain.appendLine(`${new Date().toISOString()} [${tag}] ${msg instanceof Error ? (msg.stack ?? msg.message) : msg}`);
  return {
    name: plain.name,
    get logLevel() {
      return current;
    },
    onDidChangeLogLevel: emitter.event,
    trace: (m: string) => plain.appendLine(m),
    debug: (m: string) => line('debug', m),
    info: (m: string) => line('info', m),
    warn: (m: string) => line('warn', m),
    error: (m: string | Error) => line('error', m),
    append: (v: string) => plain.append(v),
    appendLine: (v: string) => plain.appendLine(v),
    replace: (v: string) => plain.replace(v),
    clear: () => plain.clear(),
    show: (a?: vscode.ViewColumn | boolean, b?: boolean) => (typeof a === 'boolean' ? plain.show(a) : plain.show(a, b)),
    hide: () => plain.hide(),
    dispose: () => {
      sub.dispose();
      emitter.dispose();
      plain.dispose();
    },
  };
}

// ---------------------------------------------------------------------------
// Server resolution

function isExecutable(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) return false;
    if (process.platform !== 'win32') fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function probePython(python: string): Promise<boolean> {
  return new Promise((resolve) => {
    cp.execFile(python, ['-c', 'import skill_lsp'], { timeout: 5000, windowsHide: true }, (err) => {
      if (err) log(`probe: ${python} -c "import skill_lsp" failed: ${err.message.split('\n')[0]}`);
      resolve(!err);
    });
  });
}

function probePythonVersion(python: string): Promise<PythonVersion | undefined> {
  return new Promise((resolve) => {
    cp.execFile(
      python,
      ['-I', '-c', 'import sys; print(sys.implementation.name, *sys.version_info[:2])'],
      { timeout: 5000, windowsHide: true },
      (err, stdout) => {
        const m = /^(\w+) (\d+) (\d+)/.exec(String(stdout).trim());
        if (err || !m) {
          log(`probe: ${python} did not report its version${err ? `: ${err.message.split('\n')[0]}` : ''}`);
          resolve(undefined);
          return;
        }
        resolve({ implementation: m[1] ?? '', major: Number(m[2]), minor: Number(m[3]) });
      },
    );
  });
}

/** The server a platform .vsix carries (bundled/manifest.json), if this is one. */
let bundle: Bundle | undefined;

function loadBundle(extensionPath: string): Bundle | undefined {
  const manifest = path.join(extensionPath, 'bundled', 'manifest.json');
  try {
    const parsed = parseBundleManifest(JSON.parse(fs.readFileSync(manifest, 'utf8')), path.join(extensionPath, 'bundled', 'libs'));
    if (!parsed) log(`${manifest} is not a valid bundle manifest: ignored`);
    return parsed;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') log(`${manifest}: ${String(e)}`);
    return undefined;
  }
}

interface PythonEnvironmentsApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri | vscode.WorkspaceFolder): { id: string; path: string };
    resolveEnvironment(env: { id: string; path: string } | string): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
  };
}

let pythonListener: vscode.Disposable | undefined;

async function pythonInterpreter(): Promise<string | undefined> {
  const ext = vscode.extensions.getExtension<PythonEnvironmentsApi>('ms-python.python');
  if (!ext) return undefined;
  try {
    const api = ext.isActive ? ext.exports : await ext.activate();
    const envs = api?.environments;
    if (!envs) return undefined;
    if (!pythonListener && envs.onDidChangeActiveEnvironmentPath) {
      pythonListener = envs.onDidChangeActiveEnvironmentPath(() => {
        if (client === undefined || lastServer?.source !== 'setting') {
          log('The selected Python interpreter changed: restarting the server');
          void restartServer();
        }
      });
    }
    const resource = vscode.workspace.workspaceFolders?.[0];
    const active = envs.getActiveEnvironmentPath(resource);
    const resolved = await envs.resolveEnvironment(active);
    return resolved?.executable?.uri?.fsPath ?? active.path;
  } catch (e) {
    log(`Python extension API failed: ${String(e)}`);
    return undefined;
  }
}

let lastServer: ServerCommand | undefined;

async function findServer(): Promise<ServerCommand | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  // In an untrusted workspace VS Code returns only the user-level value of the
  // restricted setting skillLsp.server.path.
  const configured = expandPath(config().get<string>('server.path') ?? '', {
    home: os.homedir(),
    workspaceFolder: folder,
    env: process.env,
  });
  const python = await pythonInterpreter();
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const allowPython = vscode.workspace.isTrusted || (python !== undefined && !isInside(python, folders));
  const result = await resolveServerCommand({
    configuredPath: configured,
    pythonInterpreter: python,
    allowPython,
    envPath: process.env.PATH,
    isExecutable,
    probePython,
    bundle,
    probePythonVersion,
    log,
  });
  for (const t of result.tried) log(`server candidate rejected: ${t}`);
  if (result.ok) return result.server;
  if (!notFoundShown) {
    notFoundShown = true;
    const bundleInfo = bundle && !result.ok ? { minPython: bundle.minPython, pythonsSeen: result.pythonsSeen ?? [] } : undefined;
    void vscode.window.showErrorMessage(serverNotFoundMessage(python, bundleInfo), 'Open Settings', 'Show Output', 'Retry').then((choice) => {
      if (choice === 'Open Settings') {
        void openServerPathSetting();
      } else if (choice === 'Show Output') {
        output.show(true);
      } else if (choice === 'Retry') {
        notFoundShown = false;
        void restartServer();
      }
    });
  }
  return undefined;
}

/**
 * Show `skillLsp.server.path` in the Settings editor. It is machine-overridable,
 * so a remote window (SSH, containers, code-server) lists it under the Remote tab
 * only: open that one there.
 */
async function openServerPathSetting(): Promise<void> {
  if (vscode.env.remoteName) {
    try {
      await vscode.commands.executeCommand('workbench.action.openRemoteSettings', { query: 'skillLsp.server.path' });
      return;
    } catch (e) {
      log(`openRemoteSettings failed: ${String(e)}`);
    }
  }
  await vscode.commands.executeCommand('workbench.action.openSettings', 'skillLsp.server.path');
}

// ---------------------------------------------------------------------------
// Client

function createClient(server: ServerCommand): LanguageClient {
  const serverOptions: ServerOptions = {
    run: { command: server.command, args: server.args, transport: TransportKind.stdio },
    debug: { command: server.command, args: server.args, transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'skill' },
      { scheme: 'untitled', language: 'skill' },
      { scheme: 'file', language: 'markdown', pattern: SKILL_GLOB },
    ],
    synchronize: {
      configurationSection: CONFIG_SECTION,
      fileEvents: vscode.workspace.createFileSystemWatcher(SKILL_GLOB),
    },
    initializationOptions: currentServerSettings(),
    outputChannel: output,
    traceOutputChannel: traceChannel,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    middleware: {
      // Code lenses run the server's preview commands: show their result.
      executeCommand: async (command, args, next) => {
        const req = previewRequestFromServerCommand(command, args, defaultDialect());
        if (req) {
          await openPreview(req);
          return undefined;
        }
        return (await next(command, args)) as unknown;
      },
      provideCodeLenses: (document, token, next) => (vscode.workspace.isTrusted ? next(document, token) : []),
      workspace: {
        // The server pulls section `skillLsp`: hand it the keys it knows that the
        // user set (defaults would shadow the workspace's .skill-lsp.toml).
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) return result;
          return result.map((value: unknown, i: number) => {
            const item = params.items[i];
            if (item?.section !== CONFIG_SECTION) return value;
            return currentServerSettings(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined);
          });
        },
      },
    },
  };
  const c = new LanguageClient('skillLsp', 'Skill LSP', serverOptions, clientOptions);
  c.onDidChangeState((e) => {
    if (e.newState === State.Running) setStatus('running');
    else if (e.newState === State.Stopped) setStatus('stopped');
    else setStatus('starting');
  });
  return c;
}

async function startServer(): Promise<void> {
  setStatus('starting');
  const server = await findServer();
  if (!server) {
    setStatus('failed');
    return;
  }
  lastServer = server;
  log(`Starting skill-lsp (${server.source}): ${server.command} ${server.args.join(' ')}`);
  const c = createClient(server);
  client = c;
  try {
    await c.start();
  } catch (e) {
    log(`The server failed to start: ${String(e)}`);
    setStatus('failed');
    void vscode.window.showErrorMessage(`Skill LSP: the server failed to start (${server.command}).`, 'Show Output').then((choice) => {
      if (choice) output.show(true);
    });
    return;
  }
  const info = c.initializeResult?.serverInfo;
  log(`skill-lsp running${info ? `: ${info.name} ${info.version ?? ''}` : ''}`);
  c.onNotification(STATUS_NOTIFICATION, (params: ServerStatus) => {
    lastStatus = { ...lastStatus, ...params };
    setStatus('running');
  });
  await refreshStatus();
  maybeOfferSkillLspOnly();
}

async function refreshStatus(): Promise<void> {
  if (!client || client.state !== State.Running) return;
  try {
    const s = (await client.sendRequest(ExecuteCommandRequest.type, { command: SERVER_COMMANDS.status, arguments: [{}] })) as ServerStatus | null;
    if (s && typeof s === 'object') {
      lastStatus = { ...lastStatus, ...s };
      setStatus('running');
      log(`status: profile ${s.profile}, ${s.skills} skills, roots ${JSON.stringify(s.roots ?? [])}`);
    }
  } catch (e) {
    log(`skill-lsp.status failed: ${String(e)}`);
  }
}

async function stopServer(): Promise<void> {
  const c = client;
  client = undefined;
  lastStatus = undefined;
  if (c) {
    try {
      await c.stop(5000);
    } catch (e) {
      log(`stop: ${String(e)}`);
    }
    await c.dispose().catch(() => undefined);
  }
}

async function restartServer(): Promise<void> {
  if (starting) await starting.catch(() => undefined);
  starting = (async () => {
    await stopServer();
    await startServer();
  })();
  return starting;
}

function setStatus(state: 'starting' | 'running' | 'stopped' | 'failed'): void {
  statusItem.text = statusBarText(lastStatus, state);
  statusItem.tooltip = state === 'failed' ? 'Skill LSP: no server (click for the log)' : statusBarTooltip(lastStatus);
  statusItem.command = state === 'running' && vscode.workspace.isTrusted ? CLIENT_COMMANDS.previewCatalog : CLIENT_COMMANDS.showOutput;
  statusItem.show();
}

// ---------------------------------------------------------------------------
// Previews

let lastNotice: string | undefined;

async function runPreview(req: PreviewRequest): Promise<string> {
  if (!client || client.state !== State.Running) {
    throw new Error('the skill-lsp server is not running');
  }
  const result: unknown = await client.sendRequest(ExecuteCommandRequest.type, previewCommand(req));
  lastNotice = previewNotice(result);
  return previewText(result);
}

class PreviewProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;

  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.emitter.fire(uri);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const cached = this.texts.get(uri.toString());
    if (cached !== undefined) return cached;
    const req = decodePreviewUri(uri);
    if (!req) return '';
    try {
      const text = await runPreview(req);
      this.texts.set(uri.toString(), text);
      return text;
    } catch (e) {
      return `Skill LSP: preview failed: ${String(e)}\n`;
    }
  }

  /** Re-run every open preview (after a SKILL.md was saved). */
  async refreshOpen(): Promise<void> {
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme !== PREVIEW_SCHEME) continue;
      const req = decodePreviewUri(doc.uri);
      if (!req) continue;
      try {
        this.set(doc.uri, await runPreview(req));
      } catch (e) {
        log(`refreshing ${doc.uri.toString()} failed: ${String(e)}`);
      }
    }
  }

  forget(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

async function openPreview(req: PreviewRequest): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showInformationMessage('Skill LSP: previews are disabled in an untrusted workspace.');
    return;
  }
  let text: string;
  try {
    text = await runPreview(req);
  } catch (e) {
    void vscode.window.showErrorMessage(`Skill LSP: preview failed: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  if (lastNotice) void vscode.window.showWarningMessage(lastNotice);
  const uri = vscode.Uri.from(encodePreviewUri(req));
  previews.set(uri, text);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: false });
}

async function pickSkillUri(arg: unknown): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri && isSkillFile(arg.path)) return arg;
  const active = vscode.window.activeTextEditor?.document;
  if (active && isSkillFile(active.uri.path)) return active.uri;
  const found = await vscode.workspace.findFiles(SKILL_GLOB, '**/node_modules/**', 500);
  if (found.length === 0) {
    void vscode.window.showInformationMessage('Skill LSP: open a SKILL.md to preview its activation.');
    return undefined;
  }
  if (found.length === 1) return found[0];
  const picked = await vscode.window.showQuickPick(
    found
      .map((u) => ({ label: vscode.workspace.asRelativePath(u), uri: u }))
      .sort((a, b) => a.label.localeCompare(b.label)),
    { title: 'Skill: Preview Activation', placeHolder: 'Which skill?' },
  );
  return picked?.uri;
}

async function pickDialect(title: string): Promise<string | undefined> {
  const items = orderedDialects(defaultDialect()).map((d) => ({
    label: d.label,
    description: d.isDefault ? '(default)' : undefined,
    detail: d.detail,
    id: d.id,
  }));
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: 'Dialect: which harness to preview' });
  return picked?.id;
}

async function previewActivationCommand(arg?: unknown): Promise<void> {
  // From the server's code lens (via the middleware) or another extension: {uri, dialect?, ...}.
  if (arg && typeof arg === 'object' && !(arg instanceof vscode.Uri)) {
    const req = previewRequestFromServerCommand(SERVER_COMMANDS.previewActivation, [arg], defaultDialect());
    if (req) return openPreview(req);
  }
  const uri = await pickSkillUri(arg);
  if (!uri) return;
  const dialect = await pickDialect('Skill: Preview Activation');
  if (!dialect) return;
  const raw = await vscode.window.showInputBox({
    title: 'Skill: Preview Activation — arguments (optional)',
    prompt: 'What follows the skill name, as $ARGUMENTS: free text, or key=value pairs. Leave empty for none.',
    placeHolder: 'e.g. src/app.py  or  file=src/app.py mode=strict',
  });
  if (raw === undefined) return;
  const req: PreviewRequest = { kind: 'activation', dialect, uri: uri.toString() };
  const args = parseActivationArguments(raw);
  if (args !== undefined) req.arguments = args;
  await openPreview(req);
}

async function previewCatalogCommand(arg?: unknown): Promise<void> {
  if (arg && typeof arg === 'object' && !(arg instanceof vscode.Uri)) {
    const req = previewRequestFromServerCommand(SERVER_COMMANDS.previewCatalog, [arg], defaultDialect());
    if (req) return openPreview(req);
  }
  const dialect = await pickDialect('Skill: Preview Catalog');
  if (!dialect) return;
  const req: PreviewRequest = { kind: 'catalog', dialect };
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (uri && uri.scheme === 'file') req.uri = uri.toString();
  else {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder) req.uri = folder.uri.toString();
  }
  await openPreview(req);
}

// ---------------------------------------------------------------------------
// VS Code's own SKILL.md support (lib.ts, BUILTIN_SKILL_LANGUAGE)

let globalState: vscode.Memento | undefined;

/**
 * Offer, once ever (globalState), to leave SKILL.md to skill-lsp: only while the
 * server runs, and only when an open SKILL.md has VS Code's `skill` language.
 */
function maybeOfferSkillLspOnly(): void {
  if (!globalState || globalState.get<boolean>(BUILTIN_OFFER_KEY)) return;
  if (!client || client.state !== State.Running) return;
  const doc = vscode.workspace.textDocuments.find((d) => builtinSkillSupportHandles({ languageId: d.languageId, path: d.uri.path }));
  if (!doc) return;
  void globalState.update(BUILTIN_OFFER_KEY, true);
  log(`VS Code's own SKILL.md support handles ${doc.uri.fsPath} (language "${doc.languageId}"): offering to turn it off`);
  void vscode.window.showInformationMessage(BUILTIN_OFFER_MESSAGE, BUILTIN_OFFER_ACCEPT, BUILTIN_OFFER_DECLINE).then((choice) => {
    log(`offer answered: ${choice ?? 'dismissed'}`);
    if (choice === BUILTIN_OFFER_ACCEPT) void useSkillLspOnly();
  });
}

/** User setting files.associations: SKILL.md -> markdown (VS Code reopens open ones in that language). */
async function useSkillLspOnly(): Promise<void> {
  const files = vscode.workspace.getConfiguration('files');
  const current = files.inspect<Record<string, string>>('associations')?.globalValue;
  await files.update('associations', withSkillLspOnly(current), vscode.ConfigurationTarget.Global);
  log('files.associations: SKILL.md -> markdown in the user settings (VS Code\'s own SKILL.md completions and checks are off)');
}

export function activate(context: vscode.ExtensionContext): void {
  output = vscode.window.createOutputChannel('Skill LSP', { log: true });
  traceChannel = createTraceChannel();
  statusItem = vscode.window.createStatusBarItem('skillLsp.status', vscode.StatusBarAlignment.Right, 100);
  statusItem.name = 'Skill LSP';
  previews = new PreviewProvider();
  bundle = loadBundle(context.extensionPath);
  globalState = context.globalState;
  context.subscriptions.push(
    output,
    traceChannel,
    statusItem,
    previews,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    vscode.commands.registerCommand(CLIENT_COMMANDS.restartServer, async () => {
      notFoundShown = false;
      await restartServer();
    }),
    vscode.commands.registerCommand(CLIENT_COMMANDS.showOutput, () => output.show(true)),
    vscode.commands.registerCommand(CLIENT_COMMANDS.previewActivation, previewActivationCommand),
    vscode.commands.registerCommand(CLIENT_COMMANDS.previewCatalog, previewCatalogCommand),
    vscode.commands.registerCommand(CLIENT_COMMANDS.useSkillLspOnly, useSkillLspOnly),
    // A SKILL.md opened, or reopened in another language (a files.associations change).
    vscode.workspace.onDidOpenTextDocument(() => maybeOfferSkillLspOnly()),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (isSkillFile(doc.uri.path)) {
        void previews.refreshOpen();
        void refreshStatus();
      }
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => {
      if (doc.uri.scheme === PREVIEW_SCHEME) previews.forget(doc.uri);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('skillLsp.server.path')) {
        log('skillLsp.server.path changed: restarting the server');
        notFoundShown = false;
        void restartServer();
      } else if (e.affectsConfiguration(CONFIG_SECTION)) {
        // Other settings reach the running server through
        // workspace/didChangeConfiguration (synchronize.configurationSection),
        // after which it pulls workspace/configuration; re-read its status once
        // it has had time to re-merge (a rescan also sends skillLsp/status).
        setTimeout(() => void refreshStatus(), 400);
        setTimeout(() => void refreshStatus(), 2000);
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      log('Workspace trusted: restarting the server with the full settings');
      void restartServer();
    }),
  );
  log(
    `Skill LSP extension ${String((context.extension.packageJSON as { version?: string }).version)} activated (VS Code ${vscode.version}, trusted: ${vscode.workspace.isTrusted}` +
      `${bundle ? `, bundled server for ${bundle.pythons.join(', ')}` : ''})`,
  );
  // Not awaited: activation (and so command registration) must not wait for
  // the server process.
  starting = startServer();
}

export async function deactivate(): Promise<void> {
  pythonListener?.dispose();
  await stopServer();
}

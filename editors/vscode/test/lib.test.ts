import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BUILTIN_SKILL_LANGUAGE,
  builtinSkillSupportHandles,
  withSkillLspOnly,
  DIALECTS,
  PREVIEW_SCHEME,
  SERVER_COMMANDS,
  decodePreviewUri,
  encodePreviewUri,
  explicitServerSettings,
  expandPath,
  findOnPath,
  isInside,
  isSkillFile,
  orderedDialects,
  parseActivationArguments,
  previewCommand,
  previewRequestFromServerCommand,
  previewNotice,
  previewText,
  BUNDLE_BOOT,
  bundleTagFor,
  parseBundleManifest,
  resolveServerCommand,
  serverNotFoundMessage,
  serverSettings,
  shellSplit,
  statusBarText,
  statusBarTooltip,
  type Bundle,
  type ResolveEnv,
} from '../src/lib';
import pkg from '../package.json';

describe('dialects', () => {
  it('lists the eight dialects of docs/server.md', () => {
    assert.deepEqual(
      DIALECTS.map((d) => d.id),
      ['skill-tool', 'dsh', 'agentskills', 'claude-code', 'codex', 'opencode', 'gemini', 'copilot'],
    );
  });
  it('matches the enum of skillLsp.dialect in package.json', () => {
    const props = pkg.contributes.configuration.properties;
    assert.deepEqual(props['skillLsp.dialect'].enum, DIALECTS.map((d) => d.id));
  });
  it('puts the default first', () => {
    const o = orderedDialects('codex');
    assert.equal(o[0]?.id, 'codex');
    assert.equal(o[0]?.isDefault, true);
    assert.equal(o.length, DIALECTS.length);
    assert.equal(o.filter((d) => d.isDefault).length, 1);
  });
  it('falls back to skill-tool for an unknown default', () => {
    assert.equal(orderedDialects('nope')[0]?.id, 'skill-tool');
    assert.equal(orderedDialects(undefined)[0]?.id, 'skill-tool');
  });
});

describe('package.json settings', () => {
  const props = pkg.contributes.configuration.properties as Record<string, { default?: unknown; description?: string; markdownDescription?: string }>;
  it('has every server setting with a description', () => {
    for (const key of ['profile', 'targets', 'roots', 'dialect', 'severity', 'checkLinks', 'select', 'extendSelect', 'ignore', 'sensitivePatterns', 'debounceMs']) {
      const p = props[`skillLsp.${key}`];
      assert.ok(p, `skillLsp.${key} missing`);
      assert.ok(p.description ?? p.markdownDescription, `skillLsp.${key} has no description`);
    }
    assert.ok(props['skillLsp.server.path']);
    assert.ok(props['skillLsp.trace.server']);
  });
  it('no longer offers the retired hideBuiltinDuplicates setting', () => {
    // Retired in 0.2: it hid findings whose fixes only skill-lsp offers.
    assert.equal(props['skillLsp.hideBuiltinDuplicates'], undefined);
  });
  it('activates on SKILL.md workspaces and the skill/markdown languages', () => {
    assert.deepEqual(pkg.activationEvents, ['workspaceContains:**/{SKILL,skill}.md', 'onLanguage:skill', 'onLanguage:markdown']);
    assert.equal(pkg.engines.vscode, '^1.91.0');
    assert.equal(pkg.main, './dist/extension.js');
  });
  it('contributes the commands, previews gated on workspace trust', () => {
    const cmds = Object.fromEntries(pkg.contributes.commands.map((c) => [c.command, c]));
    assert.equal(cmds['skillLsp.previewActivation']?.title, 'Preview Activation');
    assert.equal(cmds['skillLsp.previewActivation']?.category, 'Skill');
    assert.equal(cmds['skillLsp.previewCatalog']?.enablement, 'isWorkspaceTrusted');
    assert.equal(cmds['skillLsp.restartServer']?.category, 'Skill LSP');
  });
  it('restricts the server path and the roots in untrusted workspaces', () => {
    // A repository's .vscode/settings.json must not run another server or point roots outside it.
    assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, ['skillLsp.server.path', 'skillLsp.roots']);
    assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  });
});

describe('isSkillFile', () => {
  it('accepts SKILL.md and skill.md only', () => {
    assert.equal(isSkillFile('/a/b/SKILL.md'), true);
    assert.equal(isSkillFile('file:///a/b/skill.md'), true);
    assert.equal(isSkillFile('C:\\x\\SKILL.md'), true);
    assert.equal(isSkillFile('/a/b/Skill.md'), false);
    assert.equal(isSkillFile('/a/b/README.md'), false);
    assert.equal(isSkillFile('/a/SKILL.md.bak'), false);
    assert.equal(isSkillFile('file:///a/SKILL.md?x=1'), true);
  });
});

describe('shellSplit', () => {
  it('splits words and honours quotes and escapes', () => {
    assert.deepEqual(shellSplit('a b  c'), ['a', 'b', 'c']);
    assert.deepEqual(shellSplit(`"two words" 'single $x' a\\ b`), ['two words', 'single $x', 'a b']);
    assert.deepEqual(shellSplit('k="v \\"q\\""'), ['k=v "q"']);
    assert.deepEqual(shellSplit('""'), ['']);
    assert.deepEqual(shellSplit('   '), []);
  });
  it('rejects an unterminated quote', () => {
    assert.throws(() => shellSplit('"open'), /unterminated/);
  });
});

describe('parseActivationArguments', () => {
  it('gives undefined for nothing', () => {
    assert.equal(parseActivationArguments(undefined), undefined);
    assert.equal(parseActivationArguments(''), undefined);
    assert.equal(parseActivationArguments('   '), undefined);
  });
  it('keeps free text as the raw string', () => {
    assert.equal(parseActivationArguments('src/app.py --fast'), 'src/app.py --fast');
    assert.equal(parseActivationArguments('fix the "login" bug'), 'fix the "login" bug');
    assert.equal(parseActivationArguments('a=1 and more'), 'a=1 and more');
    assert.equal(parseActivationArguments('"unterminated'), '"unterminated');
  });
  it('turns key=value pairs into an object', () => {
    assert.deepEqual(parseActivationArguments('file=src/app.py mode="very strict"'), { file: 'src/app.py', mode: 'very strict' });
    assert.deepEqual(parseActivationArguments('empty='), { empty: '' });
    assert.deepEqual(parseActivationArguments('url=http://x/?a=b'), { url: 'http://x/?a=b' });
  });
  it('accepts a JSON object', () => {
    assert.deepEqual(parseActivationArguments('{"a": "x", "n": 2}'), { a: 'x', n: '2' });
    assert.equal(parseActivationArguments('{not json'), '{not json');
  });
});

describe('preview URIs', () => {
  it('round-trips an activation request', () => {
    const req = {
      kind: 'activation' as const,
      dialect: 'claude-code',
      uri: 'file:///ws/.claude/skills/pdf-tools/SKILL.md',
      arguments: { file: 'a b.pdf' },
    };
    const u = encodePreviewUri(req);
    assert.equal(u.scheme, PREVIEW_SCHEME);
    assert.equal(u.path, '/activation/pdf-tools (claude-code).md');
    assert.deepEqual(decodePreviewUri(u), req);
  });
  it('round-trips a catalog request', () => {
    const req = { kind: 'catalog' as const, dialect: 'codex', uri: 'file:///ws' };
    const u = encodePreviewUri(req);
    assert.equal(u.path, '/catalog/catalog (codex).md');
    assert.deepEqual(decodePreviewUri(u), req);
  });
  it('gives distinct URIs for distinct requests', () => {
    const a = encodePreviewUri({ kind: 'activation', dialect: 'dsh', uri: 'file:///x/SKILL.md', arguments: 'one' });
    const b = encodePreviewUri({ kind: 'activation', dialect: 'dsh', uri: 'file:///x/SKILL.md', arguments: 'two' });
    assert.notEqual(a.query, b.query);
  });
  it('sanitises odd skill names in the title', () => {
    const u = encodePreviewUri({ kind: 'activation', dialect: 'dsh', uri: 'file:///x/we%20ird%2Fname/SKILL.md' });
    assert.match(u.path, /^\/activation\/[A-Za-z0-9._-]+ \(dsh\)\.md$/);
    assert.equal(encodePreviewUri({ kind: 'activation', dialect: 'dsh', name: 'by-name' }).path, '/activation/by-name (dsh).md');
  });
  it('refuses foreign or broken URIs', () => {
    assert.equal(decodePreviewUri({ scheme: 'file', query: '{}' }), undefined);
    assert.equal(decodePreviewUri({ scheme: PREVIEW_SCHEME, query: 'nope' }), undefined);
    assert.equal(decodePreviewUri({ scheme: PREVIEW_SCHEME, query: '{"kind":"x","dialect":"dsh"}' }), undefined);
  });
});

describe('preview commands', () => {
  it('builds the server requests', () => {
    assert.deepEqual(previewCommand({ kind: 'activation', dialect: 'dsh', uri: 'file:///s/SKILL.md', arguments: 'x' }), {
      command: SERVER_COMMANDS.previewActivation,
      arguments: [{ dialect: 'dsh', uri: 'file:///s/SKILL.md', arguments: 'x' }],
    });
    assert.deepEqual(previewCommand({ kind: 'catalog', dialect: 'gemini' }), {
      command: 'skill-lsp.previewCatalog',
      arguments: [{ dialect: 'gemini' }],
    });
  });
  it('routes code-lens commands to previews', () => {
    assert.deepEqual(previewRequestFromServerCommand('skill-lsp.previewActivation', [{ uri: 'file:///s/SKILL.md' }], 'codex'), {
      kind: 'activation',
      dialect: 'codex',
      uri: 'file:///s/SKILL.md',
    });
    assert.deepEqual(previewRequestFromServerCommand('skill-lsp.previewCatalog', [{ dialect: 'dsh' }], 'codex'), {
      kind: 'catalog',
      dialect: 'dsh',
    });
    assert.deepEqual(previewRequestFromServerCommand('skill-lsp.previewCatalog', undefined, 'codex'), { kind: 'catalog', dialect: 'codex' });
    assert.equal(previewRequestFromServerCommand('skill-lsp.fixAll', [{ uri: 'x' }], 'codex'), undefined);
  });
  it('extracts the text of a result', () => {
    assert.equal(previewText({ text: 'hello', kind: 'ok' }), 'hello');
    assert.equal(previewText('raw'), 'raw');
    assert.match(previewText(null), /no preview text/);
  });
  it('says when a preview is not proven against a release, and only then', () => {
    assert.equal(
      previewNotice({ text: 'x', dialect: 'agentskills', verified: false, proof: 'documented, not verified' }),
      'Skill LSP: the agentskills preview is documented, not verified against a release (documented, not verified).',
    );
    assert.equal(previewNotice({ text: 'x', dialect: 'codex', verified: true, proof: 'capture: codex@0.171.0' }), undefined);
    assert.equal(previewNotice({ text: 'x' }), undefined);
    assert.equal(previewNotice('raw'), undefined);
  });
});

describe('status bar', () => {
  it('shows profile and skill count', () => {
    assert.equal(statusBarText({ profile: 'claude-code', skills: 3 }, 'running'), '$(book) claude-code · 3 skills');
    assert.equal(statusBarText({ profile: 'dsh', skills: 1 }, 'running'), '$(book) dsh · 1 skill');
    assert.equal(statusBarText({ profile: 'dsh', skills: 1, scanning: true }, 'running'), '$(sync~spin) dsh · 1 skill');
    assert.equal(statusBarText(undefined, 'running'), '$(sync~spin) Skill LSP');
    assert.equal(statusBarText(undefined, 'failed'), '$(error) Skill LSP');
  });
  it('shows the configured targets, or that they follow the root', () => {
    assert.equal(statusBarText({ profile: 'skill-tool', targets: ['claude-code', 'codex'], skills: 2 }, 'running'), '$(book) claude-code,codex · 2 skills');
    assert.equal(statusBarText({ profile: 'skill-tool', targets: [], skills: 2 }, 'running'), '$(book) targets by root · 2 skills');
  });
  it('warns when an installed harness is not the release proven', () => {
    const newer = { harness: 'claude-code', version: '2.2.0', proven: '2.1.332', differs: true };
    const same = { harness: 'codex', version: '0.171.0', proven: '0.171.0', differs: false };
    const status = { profile: 'skill-tool', targets: [], skills: 2, installed: [newer, same] };
    assert.equal(statusBarText(status, 'running'), '$(book) targets by root · 2 skills $(warning)');
    assert.match(statusBarTooltip(status), /Installed claude-code 2\.2\.0 \(proven: 2\.1\.332\): previews may differ/);
    assert.doesNotMatch(statusBarTooltip(status), /codex/);
    assert.equal(statusBarText({ ...status, installed: [same] }, 'running'), '$(book) targets by root · 2 skills');
  });
});

describe('settings', () => {
  it('keeps only the server keys', () => {
    assert.deepEqual(
      serverSettings({ profile: 'dsh', server: { path: '/x' }, trace: { server: 'verbose' }, debounceMs: 10, checkLinks: false }),
      { profile: 'dsh', debounceMs: 10, checkLinks: false },
    );
    assert.deepEqual(serverSettings(undefined), {});
  });
});

describe('explicit settings', () => {
  it('sends only what the user set, folder over workspace over user', () => {
    const table: Record<string, { defaultValue?: unknown; globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown }> = {
      profile: { defaultValue: 'skill-tool', globalValue: 'dsh', workspaceValue: 'claude-code' },
      roots: { defaultValue: [] },
      dialect: { defaultValue: 'skill-tool', globalValue: 'codex', workspaceFolderValue: 'gemini', workspaceValue: 'dsh' },
      checkLinks: { defaultValue: true, globalValue: false },
      debounceMs: { defaultValue: 50 },
    };
    assert.deepEqual(
      explicitServerSettings((k) => table[k]),
      { profile: 'claude-code', dialect: 'gemini', checkLinks: false },
    );
  });
});

describe('server resolution', () => {
  const base = (over: Partial<ResolveEnv>): ResolveEnv => ({
    configuredPath: '',
    allowPython: true,
    envPath: '/usr/local/bin:/usr/bin',
    isExecutable: () => false,
    probePython: () => Promise.resolve(false),
    platform: 'linux',
    ...over,
  });

  it('prefers skillLsp.server.path', async () => {
    const r = await resolveServerCommand(
      base({ configuredPath: '/opt/skill-lsp', pythonInterpreter: '/usr/bin/python3', isExecutable: (p) => p === '/opt/skill-lsp', probePython: () => Promise.resolve(true) }),
    );
    assert.deepEqual(r, { ok: true, server: { source: 'setting', command: '/opt/skill-lsp', args: ['serve'] }, tried: [] });
  });
  it('uses the Python interpreter that imports skill_lsp', async () => {
    const probed: string[] = [];
    const r = await resolveServerCommand(
      base({
        configuredPath: '/missing',
        pythonInterpreter: '/venv/bin/python',
        probePython: (p) => {
          probed.push(p);
          return Promise.resolve(true);
        },
        isExecutable: (p) => p === '/usr/bin/skill-lsp',
      }),
    );
    assert.equal(r.ok, true);
    assert.deepEqual(r.ok && r.server, { source: 'python', command: '/venv/bin/python', args: ['-m', 'skill_lsp', 'serve'] });
    assert.deepEqual(probed, ['/venv/bin/python']);
    assert.match(r.tried[0] ?? '', /not an executable/);
  });
  it('falls back to skill-lsp on PATH', async () => {
    const r = await resolveServerCommand(base({ pythonInterpreter: '/venv/bin/python', isExecutable: (p) => p === '/usr/bin/skill-lsp' }));
    assert.deepEqual(r.ok && r.server, { source: 'path', command: '/usr/bin/skill-lsp', args: ['serve'] });
    assert.match(r.tried[0] ?? '', /cannot import skill_lsp/);
  });
  it('does not run a workspace interpreter when not allowed', async () => {
    let probed = false;
    const r = await resolveServerCommand(
      base({
        pythonInterpreter: '/ws/.venv/bin/python',
        allowPython: false,
        probePython: () => {
          probed = true;
          return Promise.resolve(true);
        },
      }),
    );
    assert.equal(probed, false);
    assert.equal(r.ok, false);
    assert.match(r.tried.join('\n'), /not trusted/);
  });
  it('reports every candidate when nothing works', async () => {
    const r = await resolveServerCommand(base({ configuredPath: '/nope', pythonInterpreter: '/py' }));
    assert.equal(r.ok, false);
    assert.equal(r.tried.length, 3);
  });
  it('words the not-found message with pipx and the setting', () => {
    const m = serverNotFoundMessage('/venv/bin/python');
    assert.match(m, /pipx install skill-lsp/);
    assert.match(m, /skillLsp\.server\.path/);
    assert.match(m, /\/venv\/bin\/python" -m pip install skill-lsp/);
    assert.match(serverNotFoundMessage(undefined), /pip install skill-lsp into the selected Python interpreter/);
  });
});

describe('paths', () => {
  it('finds executables on PATH', () => {
    const exe = new Set(['/b/skill-lsp']);
    assert.equal(findOnPath('skill-lsp', '/a::/b', (p) => exe.has(p), 'linux'), '/b/skill-lsp');
    assert.equal(findOnPath('skill-lsp', undefined, () => true, 'linux'), undefined);
    assert.equal(findOnPath('skill-lsp', 'C:\\bin;D:\\x', (p) => p === 'D:\\x\\skill-lsp.EXE', 'win32', '.EXE;.CMD'), 'D:\\x\\skill-lsp.EXE');
  });
  it('expands ~ and variables', () => {
    const ctx = { home: '/home/u', workspaceFolder: '/ws', env: { VENV: '/v' } };
    assert.equal(expandPath('~/bin/skill-lsp', ctx), '/home/u/bin/skill-lsp');
    assert.equal(expandPath('${workspaceFolder}/.venv/bin/skill-lsp', ctx), '/ws/.venv/bin/skill-lsp');
    assert.equal(expandPath('${env:VENV}/bin/skill-lsp', ctx), '/v/bin/skill-lsp');
    assert.equal(expandPath('${userHome}/x', ctx), '/home/u/x');
    assert.equal(expandPath('  ', ctx), '');
  });
  it('tells whether a path lies in a folder', () => {
    assert.equal(isInside('/ws/.venv/bin/python', ['/ws']), true);
    assert.equal(isInside('/wsx/python', ['/ws']), false);
    assert.equal(isInside('/usr/bin/python3', ['/ws', '/other']), false);
  });
});

describe('bundled server', () => {
  const bundle: Bundle = { libs: '/ext/bundled/libs', pythons: ['cp310', 'cp311', 'cp312', 'cp313', 'cp314'], minPython: '3.10' };
  const base = (over: Partial<ResolveEnv>): ResolveEnv => ({
    configuredPath: '',
    allowPython: true,
    envPath: '/usr/local/bin:/usr/bin',
    isExecutable: (p) => p === '/usr/bin/python3',
    probePython: () => Promise.resolve(false),
    platform: 'linux',
    bundle,
    probePythonVersion: () => Promise.resolve({ implementation: 'cpython', major: 3, minor: 11 }),
    ...over,
  });

  it('reads the manifest written by bundle-server.py', () => {
    assert.deepEqual(parseBundleManifest({ pythons: ['cp310', 'cp311'], minPython: '3.10', target: 'linux-x64' }, '/l'), {
      libs: '/l',
      pythons: ['cp310', 'cp311'],
      minPython: '3.10',
    });
    assert.equal(parseBundleManifest({ pythons: [], minPython: '3.10' }, '/l'), undefined);
    assert.equal(parseBundleManifest({ pythons: ['cp311'] }, '/l'), undefined);
    assert.equal(parseBundleManifest(null, '/l'), undefined);
  });
  it('runs the bundle with python3 from PATH, isolated, its libraries first', async () => {
    const r = await resolveServerCommand(base({}));
    assert.deepEqual(r.ok && r.server, {
      source: 'bundled',
      command: '/usr/bin/python3',
      args: ['-I', '-c', BUNDLE_BOOT, '/ext/bundled/libs/cp311', '/ext/bundled/libs/common'],
    });
  });
  it('prefers the Python extension interpreter for the bundle', async () => {
    const seen: string[] = [];
    const r = await resolveServerCommand(
      base({
        pythonInterpreter: '/venv/bin/python',
        probePythonVersion: (p) => {
          seen.push(p);
          return Promise.resolve({ implementation: 'cpython', major: 3, minor: 13 });
        },
      }),
    );
    assert.equal(r.ok && r.server.command, '/venv/bin/python');
    assert.equal(r.ok && r.server.args[3], '/ext/bundled/libs/cp313');
    assert.deepEqual(seen, ['/venv/bin/python']);
  });
  it('still prefers an interpreter that imports skill_lsp itself, and the setting', async () => {
    const py = await resolveServerCommand(base({ pythonInterpreter: '/venv/bin/python', probePython: () => Promise.resolve(true) }));
    assert.equal(py.ok && py.server.source, 'python');
    const set = await resolveServerCommand(base({ configuredPath: '/opt/skill-lsp', isExecutable: (p) => p === '/opt/skill-lsp' || p === '/usr/bin/python3' }));
    assert.equal(set.ok && set.server.source, 'setting');
  });
  it('skips a too old Python and falls back to skill-lsp on PATH', async () => {
    const r = await resolveServerCommand(
      base({
        isExecutable: (p) => p === '/usr/bin/python3' || p === '/usr/local/bin/skill-lsp',
        probePythonVersion: () => Promise.resolve({ implementation: 'cpython', major: 3, minor: 8 }),
      }),
    );
    assert.deepEqual(r.ok && r.server, { source: 'path', command: '/usr/local/bin/skill-lsp', args: ['serve'] });
    assert.match(r.tried.join('\n'), /\/usr\/bin\/python3 for the bundled server \(is Python 3\.8; the bundled server needs Python 3\.10 or newer\)/);
  });
  it('explains the minimum version when nothing runs', async () => {
    const r = await resolveServerCommand(base({ probePythonVersion: () => Promise.resolve({ implementation: 'cpython', major: 3, minor: 9 }) }));
    assert.equal(r.ok, false);
    const seen = r.ok ? [] : (r.pythonsSeen ?? []);
    assert.deepEqual(seen, ['/usr/bin/python3: Python 3.9']);
    const m = serverNotFoundMessage(undefined, { minPython: '3.10', pythonsSeen: seen });
    assert.match(m, /needs Python 3\.10 or newer \(found \/usr\/bin\/python3: Python 3\.9\)/);
    assert.match(m, /skillLsp\.server\.path/);
    assert.match(serverNotFoundMessage(undefined, { minPython: '3.10', pythonsSeen: [] }), /no python3 on PATH/);
  });
  it('checks implementation and the versions carried', () => {
    assert.deepEqual(bundleTagFor(bundle, { implementation: 'pypy', major: 3, minor: 11 }), {
      ok: false,
      reason: 'is pypy 3.11; the bundled server needs CPython',
    });
    assert.deepEqual(bundleTagFor(bundle, { implementation: 'cpython', major: 3, minor: 15 }), {
      ok: false,
      reason: 'is Python 3.15; this extension carries the server for Python 3.10–3.14',
    });
    assert.deepEqual(bundleTagFor(bundle, undefined), { ok: false, reason: 'does not run' });
    assert.deepEqual(bundleTagFor(bundle, { implementation: 'cpython', major: 3, minor: 10 }), { ok: true, tag: 'cp310' });
  });
});

describe("VS Code's own SKILL.md support", () => {
  it('is handling a SKILL.md only while it has the skill language', () => {
    assert.equal(BUILTIN_SKILL_LANGUAGE, 'skill');
    assert.ok(builtinSkillSupportHandles({ languageId: 'skill', path: '/w/.claude/skills/a/SKILL.md' }));
    assert.ok(!builtinSkillSupportHandles({ languageId: 'markdown', path: '/w/.claude/skills/a/SKILL.md' }));
    // the `skill` language on another file (a user association) is not a SKILL.md
    assert.ok(!builtinSkillSupportHandles({ languageId: 'skill', path: '/w/notes.md' }));
  });
  it('hands SKILL.md to Markdown and keeps the other associations', () => {
    assert.deepEqual(withSkillLspOnly(undefined), { 'SKILL.md': 'markdown' });
    assert.deepEqual(withSkillLspOnly({ '*.mdx': 'markdown', 'SKILL.md': 'skill', bad: 3 }), { '*.mdx': 'markdown', 'SKILL.md': 'markdown' });
    assert.deepEqual(withSkillLspOnly(['x']), { 'SKILL.md': 'markdown' });
  });
});

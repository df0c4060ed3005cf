// Runs the real DSH packages on JSON cases from stdin; prints JSON results.
// Usage: node dsh_harness.mjs <npm prefix>
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const prefix = process.argv[2];
const mod = (pkg) => pathToFileURL(join(prefix, "node_modules", "@deepseek-ai", pkg, "lib", "index.js")).href;
const { renderSkillContent } = await import(mod("dsh-skill"));
const toolSkill = await import(mod("dsh-tool-skill"));

async function catalog(c) {
  const listeners = [];
  let tool;
  const skills = c.skills.map((s) => ({
    name: s.name,
    description: s.description,
    provider: "filesystem",
    invocation: { modelInvocable: s.modelInvocable, userInvocable: true },
  }));
  const ctx = {
    tools: { register: (t) => { tool = t; }, get: () => tool },
    on: (_event, fn) => listeners.push(fn),
    skills: { snapshot: async () => ({ skills, complete: true }), list: async () => skills, get: async () => undefined },
  };
  toolSkill.apply(ctx, c.maxLength === undefined ? {} : { catalogDescriptionMaxLength: c.maxLength });
  const events = c.update
    ? [{ seq: 1, type: "user/message", data: { source: { kind: "skill-catalog", entries: [{ name: "old-skill", description: "x" }] } } }]
    : [];
  const agent = { session: { header: { cwd: "/" }, surface: { nodes: [] }, events } };
  const decision = await listeners[1]({ agent, messages: [], signal: new AbortController().signal }, async () => ({ kind: "enter", messages: [] }));
  const message = decision.messages[0];
  if (message === undefined) return { text: null, entries: null };
  return { text: message.content[0].text, entries: message.source.entries };
}

function applyError(maxLength) {
  try {
    toolSkill.apply({ tools: { register() {}, get() {} }, on() {}, skills: {} }, { catalogDescriptionMaxLength: maxLength });
    return null;
  } catch (e) {
    return String(e.message);
  }
}

const cases = JSON.parse(readFileSync(0, "utf8"));
const out = [];
for (const c of cases) {
  if (c.op === "render") out.push(renderSkillContent(c.skill));
  else if (c.op === "catalog") out.push(await catalog(c));
  else if (c.op === "digest") out.push(createHash("sha256").update(c.entries.map((e) => JSON.stringify([e[0], e[1]])).join("\n")).digest("hex"));
  else if (c.op === "trim") out.push(c.value.trim());
  else if (c.op === "apply-error") out.push(applyError(c.maxLength));
  else throw new Error(`unknown op ${c.op}`);
}
process.stdout.write(JSON.stringify(out));

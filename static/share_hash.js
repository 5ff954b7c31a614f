// The address bar's share state, made on the page from what the page shows (app/share.py's
// format: `#s=<URL-safe base64 of zlib(JSON)>`). The worker proposes a hash after every edit
// and run, but the worker runs the learner's code (a share link's code, a stranger's), which can
// patch the app's Python (e.g. app.share.encode_state) to smuggle its own code into every later
// link. So the page decodes the proposal, keeps only well-formed fields, takes the code and the
// input from the editor and the input box the visitor sees, and encodes the hash itself.
const PANES = new Set(["jaxpr", "plot", "vmap", "timing", "console"]);
const WORD = /^[A-Za-z_][\w-]{0,79}$/;
const ACE = "panel.models.ace.AcePlot";
const ARGS_TITLE = "Input (arguments)"; // app/main.py: args_input's name

function b64urlDecode(token) {
  const b64 = token.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (token.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

function b64urlEncode(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function pipe(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

// what the page shows: {code, args} from the app's document (null: no editor here)
export function shownState(jsdoc) {
  if (!jsdoc) return null;
  let code = null, args = null;
  for (const m of jsdoc.all_models) {
    const name = m.constructor.__qualified__ || "";
    if (name === ACE && code === null) code = String(m.code ?? "");
    else if (name === "panel.models.widgets.TextInput" && m.title === ARGS_TITLE) args = String(m.value ?? "");
  }
  return code === null ? null : { code, args };
}

// `fragment` (the worker's proposal) -> the hash the page writes, or null (nothing to write)
export async function pageShareHash(fragment, shown) {
  if (!fragment) return "";
  const params = new URLSearchParams(fragment.slice(1));
  if (params.has("example") && !params.has("s")) {
    const name = params.get("example").trim();
    return WORD.test(name) ? "#example=" + encodeURIComponent(name) : null;
  }
  if (!params.has("s") || !shown) return null;
  let proposed;
  try {
    proposed = JSON.parse(new TextDecoder().decode(await pipe(b64urlDecode(params.get("s")), new DecompressionStream("deflate"))));
  } catch (e) {
    return null;
  }
  if (!proposed || typeof proposed !== "object") return null;
  const state = { code: shown.code };
  if (shown.args) state.args = shown.args;
  if (typeof proposed.function === "string" && /^[A-Za-z_]\w{0,79}$/.test(proposed.function)) state.function = proposed.function;
  if (Array.isArray(proposed.panes)) {
    const panes = proposed.panes.filter((p) => PANES.has(p));
    if (panes.length) state.panes = panes;
  }
  for (const k of ["backend", "view", "example"])
    if (typeof proposed[k] === "string" && WORD.test(proposed[k])) state[k] = proposed[k];
  if (!state.code) delete state.code;
  const sorted = Object.fromEntries(Object.keys(state).sort().map((k) => [k, state[k]]));
  const raw = new TextEncoder().encode(JSON.stringify(sorted));
  return "#s=" + b64urlEncode(await pipe(raw, new CompressionStream("deflate")));
}

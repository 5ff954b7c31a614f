// What a fresh Python needs to start fast, kept on the page (docs/snapshot.md, "Restarts").
//
// A worker that boots from the post-import snapshot (import_snapshot.js) first reads its 80-90 MB
// from Cache Storage and hashes them against the hash this browser recorded: 1.4 s of a restart's
// 3-4 s on a loaded machine (load 19), each time. The page does that once, at a quiet moment, and
// gives every later worker (a Stop that ends the worker, Restart, a crash, a standby) the checked
// bytes with its init. (Handing the worker the runtime's wasm compiled once by the page was tried
// too: instantiating it in the worker was no faster than the worker's own cached compile.)
// The bytes are moved to the worker, not copied (a copy of 80-90 MB held the Stop up by
// 100-200 ms on a loaded machine), and the worker gives them back once restored, before it says
// it is ready: before any code of the learner's runs there. Bytes that come back later, or from a
// worker they were not lent to, are refused. Otherwise they are the page's own (read and checked
// here, or handed over by the worker that made them, whose hash is the one recorded). Costs the
// bytes' size in the page's memory.
//
// A worker whose restore from these bytes fails boots the normal way (worker.js), and the page
// forgets them (`heard`); a worker ended while it held them takes them along: they are read
// again at the next quiet moment (`prepare`, once a UI is up).

export async function sha256Hex(bytes) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

// cacheName/key: where the worker stores the snapshot; expected(): the recorded hash (or null).
// off: this page starts no Python of its own (a lesson's cell frame) or the visit asked for no
// snapshot.
export function makeRestartSnapshot({ cacheName, key, expected, off = false }) {
  let bytes = null, keptFor = null; // the checked bytes and the hash they matched
  let lentTo = null, lentFor = null, preparing = null;
  const state = { bytes: 0, given: 0, back: 0, dropped: null };

  async function readChecked() {
    const want = expected();
    if (!want || !globalThis.caches) return;
    const r = await (await caches.open(cacheName)).match(key);
    if (!r) return;
    const got = new Uint8Array(await r.arrayBuffer());
    if (await sha256Hex(got) !== want) return; // not the one this browser made: the worker says so
    if (!bytes || keptFor !== expected()) keep(got, want);
  }
  function keep(got, sha256) {
    bytes = got;
    keptFor = sha256;
    state.bytes = got.byteLength;
    state.dropped = null;
  }

  return {
    state,
    // at a quiet moment (a UI is up): read and check the snapshot unless it is here
    prepare() {
      if (off || preparing || (bytes && keptFor === expected())) return preparing;
      preparing = readChecked().catch(() => {}).then(() => { preparing = null; });
      return preparing;
    },
    // the worker that made the snapshot hands its bytes over with the hash it reports, the one the
    // page records (no need to hash them again: that worker is the hash's only source)
    made(got, sha256) {
      if (!off && got instanceof ArrayBuffer && sha256 === expected()) keep(new Uint8Array(got), sha256);
    },
    // a new worker's init, with the bytes (lent: see `returned`). Returns whether they went with it.
    post(worker, init) {
      const want = off ? null : expected();
      if (!bytes || !want || keptFor !== want || init.importsSnapshotHash !== want) {
        worker.postMessage(init);
        return false;
      }
      worker.postMessage({ ...init, importsSnapshot: bytes.buffer }, [bytes.buffer]);
      lentFor = keptFor;
      state.given++;
      lentTo = worker;
      bytes = null;
      state.bytes = 0;
      return true;
    },
    // the bytes back from the worker they were lent to, before its `ready` (see above)
    returned(session, got) {
      if (lentTo !== session.worker || session.readyHeard || !(got instanceof ArrayBuffer)) return;
      lentTo = null;
      keep(new Uint8Array(got), lentFor);
      state.back++;
    },
    // a worker given the bytes booted another way: they did not restore here, never give them again
    heard(session, bootedFrom) {
      session.readyHeard = true;
      if (lentTo === session.worker) lentTo = null; // not given back: restored another way, or not at all
      if (session.gaveSnapshot && bootedFrom !== "imports-snapshot") state.dropped = String(bootedFrom);
    },
  };
}

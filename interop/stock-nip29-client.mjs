// A stock NIP-29 client, written from ../shared/PROTOCOL.md 4.6 with nostr-tools (pinned in
// package-lock.json) and its nip29 helpers, unchanged. It subscribes as NIP-29 client libraries do: one
// REQ, after NIP-42 AUTH, with the group metadata kinds and the relay's deletions, and keeps a channel
// list the NIP-09 way (a kind-5 from the relay with an `a` address drops that channel). It checks that
// (a) it lists its channels, (b) it sees a rename live, (c) it drops a channel within 2 s when removed
// from it, when the channel is made private and when it is deleted, and (d) it never sees a private
// channel it is not in, whether a filter names it (#d) or not.
// Usage: node --experimental-websocket stock-nip29-client.mjs http://127.0.0.1:8080
import { generateSecretKey, getPublicKey, finalizeEvent, verifyEvent } from 'nostr-tools/pure';
import { getToken } from 'nostr-tools/nip98';
import { SimplePool } from 'nostr-tools/pool';
import { fetchGroupMetadataEvent, loadGroup, parseGroupMetadataEvent } from 'nostr-tools/nip29';
import { randomUUID } from 'node:crypto';
import { check, finish } from './checks.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const relayUrl = base.replace(/^http/, 'ws');
const DROP_WITHIN_MS = 2000;
const now = () => Math.floor(Date.now() / 1000);

const alice = generateSecretKey(); // owns every channel
const bob = generateSecretKey(); // the stock client's user
const carol = generateSecretKey();
const bobKey = getPublicKey(bob);

async function publish(secret, kind, tags) {
  const event = finalizeEvent({ kind, created_at: now(), tags, content: '' }, secret);
  const body = JSON.stringify(event);
  const token = await getToken(base + '/events', 'POST', (e) => finalizeEvent(e, secret), true, event);
  const response = await fetch(base + '/events', { method: 'POST', body, headers: { Authorization: token } });
  const json = await response.json();
  if (response.status !== 200 || !json.accepted) throw new Error(`write refused: ${response.status} ${JSON.stringify(json)}`);
}

async function query(secret, filters) {
  const body = JSON.stringify(filters);
  const token = await getToken(base + '/query', 'POST', (e) => finalizeEvent(e, secret), true, JSON.parse(body));
  const response = await fetch(base + '/query', { method: 'POST', body, headers: { Authorization: token } });
  return { status: response.status, json: await response.json() };
}

async function waitFor(condition, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}

const info = await (await fetch(base + '/', { headers: { Accept: 'application/nostr+json' } })).json();
const relayKey = info.pubkey;

// Alice's channels; Bob is in some of them.
const open = randomUUID();
const member = randomUUID();
const removedFrom = randomUUID();
const madePrivate = randomUUID();
const deleted = randomUUID();
const secret = randomUUID();
await publish(alice, 9007, [['h', open], ['name', 'garden'], ['visibility', 'open'], ['about', 'plants and tools']]);
await publish(alice, 9007, [['h', member], ['name', 'plans'], ['visibility', 'private'],
  ['about', 'what we do next'], ['picture', 'https://example.org/plans.png']]);
await publish(alice, 9000, [['h', member], ['p', bobKey]]);
await publish(alice, 9007, [['h', removedFrom], ['name', 'leaving'], ['visibility', 'private']]);
await publish(alice, 9000, [['h', removedFrom], ['p', bobKey]]);
await publish(alice, 9007, [['h', madePrivate], ['name', 'soon private'], ['visibility', 'open']]);
await publish(alice, 9007, [['h', deleted], ['name', 'soon gone'], ['visibility', 'open']]);
await publish(alice, 9007, [['h', secret], ['name', 'surprise party'], ['visibility', 'private']]);
await publish(alice, 9000, [['h', secret], ['p', getPublicKey(carol)]]);

// Bob's client.
const pool = new SimplePool({ automaticallyAuth: () => (e) => finalizeEvent(e, bob) });
const relay = await pool.ensureRelay(relayUrl);
await waitFor(() => relay.challenge, 10000);
await relay.auth((e) => finalizeEvent(e, bob));

const everything = []; // every event any of Bob's subscriptions was handed
const groups = new Map(); // channel id -> its newest 39000, as a NIP-29 client keeps them
const address = (d) => `39000:${relayKey}:${d}`;
function onGroupEvent(event) {
  everything.push(event);
  if (!verifyEvent(event) || event.pubkey !== relayKey) return;
  if (event.kind === 39000) {
    const id = event.tags.find((t) => t[0] === 'd')?.[1];
    const known = groups.get(id);
    if (!known || known.created_at <= event.created_at) groups.set(id, event);
  } else if (event.kind === 5) {
    for (const [name, value] of event.tags) {
      if (name !== 'a') continue;
      const [kind, pubkey, id] = value.split(':');
      if (kind === '39000' && pubkey === relayKey) groups.delete(id);
    }
  }
}
const invalid = [];
let stored = false;
let closedReason = null;
const sub = relay.subscribe(
  [{ kinds: [39000, 39001, 39002] }, { kinds: [5], authors: [relayKey] }],
  { onevent: onGroupEvent, oneose: () => { stored = true; }, oninvalidevent: (e) => invalid.push(e),
    onclose: (reason) => { closedReason = reason; } });
await waitFor(() => stored || closedReason !== null, 10000);
check('the stock subscription (metadata kinds and the relay\'s deletions, one REQ) reaches EOSE', stored, closedReason);

// (a) The listing.
const listed = (id) => groups.has(id);
check('(a) lists the open channel', listed(open));
check('(a) lists the private channel it is in', listed(member));
check('(a) lists every channel it may see', [removedFrom, madePrivate, deleted].every(listed), [...groups.keys()]);
const plans = parseGroupMetadataEvent(groups.get(member));
check('nip29 reads the private channel as private, closed, hidden and restricted',
  plans.isPrivate && plans.isClosed && plans.isHidden && plans.isRestricted, plans);
check('nip29 reads about and picture', plans.about === 'what we do next' && plans.picture === 'https://example.org/plans.png', plans);
const group = await loadGroup({ pool, groupReference: { host: relayUrl, id: member }, normalizedRelayURL: relayUrl, relayInformation: info });
check('nip29 loadGroup loads the private channel it is in',
  group.metadata.name === 'plans' && group.members.some((m) => m.pubkey === bobKey), group);

// (b) A rename, live.
let started = Date.now();
await publish(alice, 9002, [['h', open], ['name', 'allotment']]);
const renamed = await waitFor(() => groups.has(open) && parseGroupMetadataEvent(groups.get(open)).name === 'allotment', DROP_WITHIN_MS);
check(`(b) sees the rename live (${Date.now() - started} ms)`, renamed);

// (c) Three ways to lose a channel; each must be gone from the list within 2 s.
async function dropped(what, id, write) {
  const begin = Date.now();
  await write();
  const gone = await waitFor(() => !groups.has(id), DROP_WITHIN_MS);
  check(`(c) drops the channel within 2 s when ${what} (${Date.now() - begin} ms)`, gone, [...groups.keys()]);
}
await dropped('removed from it', removedFrom, () => publish(alice, 9001, [['h', removedFrom], ['p', bobKey]]));
await dropped('it is made private', madePrivate, () => publish(alice, 9002, [['h', madePrivate], ['visibility', 'private']]));
await dropped('it is deleted', deleted, () => publish(alice, 9008, [['h', deleted]]));
check('the other channels stay', listed(open) && listed(member), [...groups.keys()]);
check('nostr-tools found no event outside the subscription\'s filters', invalid.length === 0, invalid);

// (d) The private channel Bob is not in: never shown, named or not, even while it changes.
await publish(alice, 9002, [['h', secret], ['name', 'surprise party (moved)']]);
await publish(alice, 9000, [['h', secret], ['p', getPublicKey(generateSecretKey())]]);
const named = [];
let namedStored = false;
const byId = relay.subscribe(
  [{ kinds: [39000, 39001, 39002], '#d': [secret] }, { kinds: [5], authors: [relayKey], '#a': [address(secret)] }],
  { onevent: (e) => { named.push(e); everything.push(e); }, oneose: () => { namedStored = true; } });
await waitFor(() => namedStored, 10000);
let notFound = false;
try {
  await fetchGroupMetadataEvent({ pool, groupReference: { host: relayUrl, id: secret }, normalizedRelayURL: relayUrl, relayInformation: info });
} catch (e) {
  notFound = /not found/.test(String(e));
}
const http = await query(bob, [{ kinds: [39000, 39001, 39002], '#d': [secret] }, { kinds: [5], '#a': [address(secret)] }]);
// A marker write after the secret channel's changes: once Bob hears it, he has heard everything before it.
const marker = randomUUID();
await publish(alice, 9007, [['h', marker], ['name', 'marker'], ['visibility', 'open']]);
await waitFor(() => groups.has(marker), 10000);
check('(d) a REQ naming the private channel it is not in answers nothing', namedStored && named.length === 0, named);
check('(d) nip29 fetchGroupMetadataEvent does not find it', notFound);
check('(d) POST /query naming it answers nothing', http.status === 200 && http.json.length === 0, http);
check('(d) no event of any subscription ever names it', groups.has(marker) && !JSON.stringify(everything).includes(secret));
byId.close();
sub.close();
pool.close([relayUrl]);
finish('interop stock NIP-29 client');

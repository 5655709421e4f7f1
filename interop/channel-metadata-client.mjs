// An outside NIP-29 client, written from ../shared/PROTOCOL.md 4.6 with nostr-tools' stock nip29 helpers:
// it creates channels over signed HTTP, then lists channels, loads one with its admins and members, and
// hears a live membership change over the WebSocket after NIP-42 AUTH.
// Usage: node --experimental-websocket channel-metadata-client.mjs http://127.0.0.1:8080
import { generateSecretKey, getPublicKey, finalizeEvent, verifyEvent } from 'nostr-tools/pure';
import { getToken } from 'nostr-tools/nip98';
import { SimplePool } from 'nostr-tools/pool';
import { loadGroup, parseGroupMetadataEvent, parseGroupMembersEvent } from 'nostr-tools/nip29';
import { randomUUID } from 'node:crypto';
import { check, finish } from './checks.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const relayUrl = base.replace(/^http/, 'ws');
const secret = generateSecretKey();
const me = getPublicKey(secret);
const now = () => Math.floor(Date.now() / 1000);

async function waitFor(what, condition, seconds = 30) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  console.log(`timed out waiting for ${what}`);
  return false;
}

async function publish(event) {
  const body = JSON.stringify(event);
  const token = await getToken(base + '/events', 'POST', (e) => finalizeEvent(e, secret), true, event);
  const response = await fetch(base + '/events', { method: 'POST', body, headers: { Authorization: token } });
  return { status: response.status, json: await response.json() };
}
const sign = (kind, tags) => finalizeEvent({ kind, created_at: now(), tags, content: '' }, secret);

const info = await (await fetch(base + '/', { headers: { Accept: 'application/nostr+json' } })).json();
check('NIP-11 lists NIP-29', info.supported_nips.includes(29), info);
check('NIP-11 self is the relay key', info.self === info.pubkey, info);

const open = randomUUID();
const secretChannel = randomUUID();
let reply = await publish(sign(9007, [['h', open], ['name', 'interop open'], ['visibility', 'open']]));
check('create open channel', reply.status === 200 && reply.json.accepted, reply);
reply = await publish(sign(9007, [['h', secretChannel], ['name', 'interop private'], ['visibility', 'private']]));
check('create private channel', reply.status === 200 && reply.json.accepted, reply);

const pool = new SimplePool({ automaticallyAuth: () => (e) => finalizeEvent(e, secret) });
const relay = await pool.ensureRelay(relayUrl);
await waitFor('the AUTH challenge', () => relay.challenge);
await relay.auth((e) => finalizeEvent(e, secret));
check('NIP-42 AUTH accepted', true);

// The filter of nip29's subscribeRelayGroupsMetadataEvents; that helper itself never sends its REQ in
// nostr-tools 2.25.2 (it only prepares the subscription), so the pool sends it and nip29 parses.
// The checks wait for EOSE: the listing comes one event at a time, and two channels created in the same
// second may arrive in either order, so the first one seen says nothing of the other.
const listed = [];
let listingStored = false;
const listing = pool.subscribe([relayUrl], { kinds: [39000], limit: 50, authors: [info.pubkey] }, {
  onevent: (e) => listed.push(e),
  oneose: () => { listingStored = true; },
});
const metadataOf = (id) => listed.filter((e) => e.tags.some((t) => t[0] === 'd' && t[1] === id)).map(parseGroupMetadataEvent);
await waitFor('the end of the stored listing (EOSE)', () => listingStored);
check('the listing names the open channel', metadataOf(open).some((m) => m.name === 'interop open' && !m.isPrivate), listed.length);
check('every listed event verifies', listed.length > 0 && listed.every((e) => verifyEvent(e) && e.pubkey === info.pubkey), listed.length);
check('the owner sees its private channel as private and closed',
  metadataOf(secretChannel).some((m) => m.isPrivate && m.isClosed), metadataOf(secretChannel));
listing.close();

const group = await loadGroup({ pool, groupReference: { host: relayUrl, id: open }, normalizedRelayURL: relayUrl, relayInformation: info });
check('loadGroup reads the name', group.metadata.name === 'interop open', group.metadata);
check('loadGroup reads the owner as admin', group.admins.some((a) => a.pubkey === me && a.label === 'owner'), group.admins);
check('loadGroup reads the members', group.members.length === 1 && group.members[0].pubkey === me, group.members);

const friend = getPublicKey(generateSecretKey());
const heard = [];
const live = pool.subscribe([relayUrl], { kinds: [39002], '#d': [open], authors: [info.pubkey] }, { onevent: (e) => heard.push(e) });
await waitFor('the stored members event', () => heard.length > 0);
reply = await publish(sign(9000, [['h', open], ['p', friend]]));
check('add a member', reply.status === 200 && reply.json.accepted, reply);
const hasFriend = (e) => parseGroupMembersEvent(e).some((m) => m.pubkey === friend);
await waitFor('the live members event', () => heard.some(hasFriend));
check('the live members event names the new member', heard.some(hasFriend), heard);
live.close();

pool.close([relayUrl]);
finish('interop channels');

// An outside client, written from ../shared/PROTOCOL.md with nostr-tools (an independent Nostr library):
// it signs every event and every NIP-98 token itself, then checks the relay's answers.
// Usage: node current-read-client.mjs http://127.0.0.1:8080
import { generateSecretKey, finalizeEvent, verifyEvent } from 'nostr-tools/pure';
import { getToken } from 'nostr-tools/nip98';
import { randomUUID } from 'node:crypto';
import { check, finish } from './checks.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const secret = generateSecretKey();
const now = () => Math.floor(Date.now() / 1000);

async function post(path, payload) {
  const body = JSON.stringify(payload);
  const token = await getToken(base + path, 'POST', (e) => finalizeEvent(e, secret), true, payload);
  const response = await fetch(base + path, { method: 'POST', body, headers: { Authorization: token, 'Content-Type': 'application/json' } });
  return { status: response.status, json: await response.json() };
}

const sign = (kind, tags) => finalizeEvent({ kind, created_at: now(), tags, content: '' }, secret);
const publish = (event) => post('/events', event);
const current = (filter) => post('/query', [{ artifact: 'current', ...filter }]);

const info = await (await fetch(base + '/', { headers: { Accept: 'application/nostr+json' } })).json();
check('NIP-11 lists NIP-98', info.supported_nips.includes(98), info);

const home = randomUUID();
const away = randomUUID();
for (const channel of [home, away]) {
  const reply = await publish(sign(9007, [['h', channel], ['name', `interop ${channel}`], ['visibility', 'private']]));
  check(`create channel ${channel}`, reply.status === 200 && reply.json.accepted === true, reply);
}

const d = randomUUID();
const revision = (op, channel, prev, title) => sign(45010, [
  ['ar', '1'], ['d', d], ['h', channel], ['type', 'task.v1'], ['op', op], ['title', title],
  ...(prev ? [['prev', prev]] : []),
]);
const created = revision('create', home, null, 'write the interop check');
let reply = await publish(created);
check('create artifact', reply.status === 200 && reply.json.event_id === created.id, reply);

const edited = revision('update', home, created.id, 'write the interop check, edited');
reply = await publish(edited);
check('edit artifact', reply.status === 200 && reply.json.accepted === true, reply);

reply = await publish(revision('update', home, created.id, 'a stale edit'));
check('stale edit conflicts', reply.status === 409 && reply.json.message.startsWith('conflict:'), reply);

const moved = revision('move', away, edited.id, 'write the interop check, edited');
reply = await publish(moved);
check('move artifact', reply.status === 200 && reply.json.accepted === true, reply);

reply = await current({ '#d': [d] });
check('current read returns the moved head', reply.status === 200 && reply.json.length === 1 && reply.json[0].id === moved.id, reply);
check('the head verifies with nostr-tools', reply.json.length === 1 && verifyEvent(reply.json[0]), reply.json);
check('the head is in the new channel', reply.json[0]?.tags.some((t) => t[0] === 'h' && t[1] === away), reply.json);

reply = await current({ '#h': [home], limit: 10 });
check('the old channel has no current artifact', reply.status === 200 && reply.json.length === 0, reply);

const outsider = generateSecretKey();
const token = await getToken(base + '/query', 'POST', (e) => finalizeEvent(e, outsider), true, [{ artifact: 'current', '#d': [d] }]);
const hidden = await fetch(base + '/query', { method: 'POST', body: JSON.stringify([{ artifact: 'current', '#d': [d] }]), headers: { Authorization: token } });
check('another key cannot read the private artifact', hidden.status === 200 && (await hidden.json()).length === 0, hidden.status);

finish('interop');

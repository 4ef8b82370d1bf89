// Reads an MCAP file with Foxglove's own libraries, the code Foxglove's app reads recordings
// with (@mcap/core for the container, @foxglove/rosmsg for the ros2msg schemas,
// @foxglove/rosmsg2-serialization over @foxglove/cdr for the messages), and prints what a
// viewer gets, one JSON object per line:
//   {"kind":"message","topic":T,"schema":S,"log_time":"NS","message":{...decoded...}}  per message, in file order
//   {"kind":"summary","counts":{TOPIC:N,...},"indexed":{TOPIC:N,...}}                  the Statistics record's
//                                                                                        counts, and the messages the
//                                                                                        indexed reader finds per topic
//   node decode.mjs FILE.mcap
// The modules are found through NODE_PATH (the directory the test installs them into).
// Every CRC is checked (the readers' default); any problem ends with an exception (exit 1).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(path.join(process.env.NODE_PATH || process.cwd(), 'x.js'));
const { McapStreamReader, McapIndexedReader } = require('@mcap/core');
const { parse } = require('@foxglove/rosmsg');
const { MessageReader } = require('@foxglove/rosmsg2-serialization');

const bytes = new Uint8Array(fs.readFileSync(process.argv[2]));
const out = [];
const json = (value) => JSON.stringify(value, (key, v) => (typeof v === 'bigint' ? v.toString() : v));

// The stream reader: every record in file order, as Foxglove reads a file it streams.
const stream = new McapStreamReader({ validateCrcs: true });
stream.append(bytes);
const schemas = new Map();
const channels = new Map();
const readers = new Map();
let statistics = null;
for (let record; (record = stream.nextRecord()); ) {
  if (record.type === 'Schema') schemas.set(record.id, record);
  else if (record.type === 'Channel') channels.set(record.id, record);
  else if (record.type === 'Statistics') statistics = record;
  else if (record.type === 'Message') {
    const channel = channels.get(record.channelId);
    const schema = schemas.get(channel.schemaId);
    if (schema.encoding !== 'ros2msg' || channel.messageEncoding !== 'cdr')
      throw new Error(`channel ${channel.topic}: ${schema.encoding}/${channel.messageEncoding}`);
    if (!readers.has(channel.id)) {
      const definitions = parse(new TextDecoder().decode(schema.data), { ros2: true });
      readers.set(channel.id, new MessageReader(definitions));
    }
    const message = readers.get(channel.id).readMessage(record.data);
    out.push(json({ kind: 'message', topic: channel.topic, schema: schema.name, log_time: record.logTime,
                    message }));
  }
}
if (!stream.done()) throw new Error('the stream reader did not reach the end of the file');

// The indexed reader: the summary, chunk indexes and message indexes, as Foxglove seeks.
const readable = {
  size: async () => BigInt(bytes.length),
  read: async (offset, size) => bytes.subarray(Number(offset), Number(offset + size)),
};
const indexed = await McapIndexedReader.Initialize({ readable });
const found = {};
for await (const message of indexed.readMessages()) {
  const topic = indexed.channelsById.get(message.channelId).topic;
  found[topic] = (found[topic] ?? 0) + 1;
}
const counts = {};
for (const [id, n] of statistics.channelMessageCounts) counts[channels.get(id).topic] = Number(n);
out.push(json({ kind: 'summary', counts, indexed: found }));
process.stdout.write(out.join('\n') + '\n');

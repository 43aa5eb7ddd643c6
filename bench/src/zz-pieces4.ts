import { readFileSync } from 'node:fs';
const input = readFileSync('/tmp/perfprof/idx-100000.bin');
const c = () => { const u = process.cpuUsage(); return () => { const d = process.cpuUsage(u); return ((d.user + d.system) / 1000).toFixed(0); }; };
let done = c();
const words = new Uint32Array(input.buffer, input.byteOffset, input.length / 4 - 1);
let hash = 0x811c9dc5; for (let p = 0; p < words.length; p++) hash = Math.imul(hash ^ words[p]!, 0x01000193);
console.log('checksum', done(), input.byteOffset);
done = c();
let bad = 0; const slots = new Int32Array(input.buffer, input.byteOffset + 1_000_000, 2_191_010); for (let p = 0; p < slots.length; p++) { const s = slots[p]!; if (s < 0 || s >= 100000) bad++; }
console.log('range', done());
done = c();
const text = new TextDecoder('utf-8').decode(input.subarray(input.length - 5_000_000));
console.log('decode 5MB', done());
done = c();
const parts = []; for (let i = 0; i < 100000; i++) parts.push(text.slice(i * 30, i * 30 + 30));
console.log('slices', done());
done = c();
const m = new Map(); for (let i = 0; i < 100000; i++) m.set(parts[i], i);
console.log('map', done());

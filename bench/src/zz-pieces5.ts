import { readFileSync } from 'node:fs';
const input = readFileSync('/tmp/perfprof/idx-100000.bin');
const c = () => { const u = process.cpuUsage(); return () => { const d = process.cpuUsage(u); return ((d.user + d.system) / 1000).toFixed(0); }; };
const words = new Uint32Array(input.buffer, input.byteOffset, input.length / 4 - 1);
function one(w: Uint32Array) { let h = 0x811c9dc5; for (let p = 0; p < w.length; p++) h = Math.imul(h ^ w[p]!, 0x01000193); return h >>> 0; }
function four(w: Uint32Array) { let a = 0x811c9dc5, b = 0x01234567, c2 = 0x89abcdef, d = 0x7f4a7c15; const n = w.length & ~3; let p = 0; for (; p < n; p += 4) { a = Math.imul(a ^ w[p]!, 0x01000193); b = Math.imul(b ^ w[p + 1]!, 0x01000193); c2 = Math.imul(c2 ^ w[p + 2]!, 0x01000193); d = Math.imul(d ^ w[p + 3]!, 0x01000193); } for (; p < w.length; p++) a = Math.imul(a ^ w[p]!, 0x01000193); return (Math.imul(Math.imul(Math.imul(a, 31) ^ b, 31) ^ c2, 31) ^ d) >>> 0; }
function sum(w: Uint32Array) { let s = 0; for (let p = 0; p < w.length; p++) s = (s + w[p]!) | 0; return s; }
const which = process.argv[2];
const done = c();
const r = which === 'one' ? one(words) : which === 'four' ? four(words) : sum(words);
console.log(which, done(), r);
const done2 = c();
const r2 = which === 'one' ? one(words) : which === 'four' ? four(words) : sum(words);
console.log(which, 'again', done2(), r2);
const done3 = c();
const r3 = which === 'one' ? four(words) : one(words);
console.log('other cold fn, warm memory', done3(), r3);

// A move typed in words: two squares as the move list shows them (h2e2), or its Chinese name
// (炮二平五, 马８进７, 前车进一, 兵九进一 for a face-down Jieqi piece) as Chinese players read and
// say moves. A Chinese name is matched against the names of the legal moves of the side to move
// (chineseMove, the notation of the analysis board and the server), so it means exactly one move
// or none. Typed variants are accepted: traditional characters (車馬砲炮帥將進退), and Arabic,
// full-width or Chinese numerals for either side.
import { type Move, type Position, parseIccs } from './board';
import { legalMoves } from './movegen';
import { chineseMove } from './notation';

export type TypedMove =
  | { kind: 'iccs'; move: Move }
  | { kind: 'chinese'; move: Move; name: string } // `name`: the move's name as the move list writes it
  | { kind: 'unknown-chinese' } // Chinese words, but no legal move of the side to move has that name
  | { kind: 'none' };

const ICCS = /^[a-i][0-9][a-i][0-9][a-z]{0,2}$/i;
const CHINESE_NUMERALS = '〇一二三四五六七八九';

// One spelling for every way of writing the same name: simplified pieces and verbs, digits 1-9.
export function normaliseChinese(text: string): string {
  const same: Record<string, string> = {
    車: '车', 俥: '车', 傌: '马', 馬: '马', 砲: '炮', 包: '炮', 帥: '帅', 將: '将',
    進: '进', 後: '后', 並: '平',
  };
  let out = '';
  for (const ch of text.replace(/\s+/g, '')) {
    const code = ch.charCodeAt(0);
    if (code >= 0xff10 && code <= 0xff19) out += String(code - 0xff10); // full-width digit
    else if (CHINESE_NUMERALS.includes(ch)) out += String(CHINESE_NUMERALS.indexOf(ch));
    else out += same[ch] ?? ch;
  }
  return out;
}

// Chinese piece names of both sides read alike when typed (a player may type 士 for 仕, 卒 for 兵):
// the side to move decides whose piece it is.
function sideFree(name: string): string {
  const one: Record<string, string> = { 将: '帅', 士: '仕', 象: '相', 卒: '兵' };
  return [...name].map((ch) => one[ch] ?? ch).join('');
}

export function parseTypedMove(pos: Position, typed: string): TypedMove {
  const text = typed.trim();
  if (ICCS.test(text)) {
    const m = parseIccs(text.toLowerCase());
    if (m) return { kind: 'iccs', move: { from: m.from, to: m.to } };
  }
  if (!/[\u4e00-\u9fff]/.test(text)) return { kind: 'none' };
  const want = sideFree(normaliseChinese(text));
  for (const m of legalMoves(pos)) {
    const name = chineseMove(pos, m);
    if (name && sideFree(normaliseChinese(name)) === want) return { kind: 'chinese', move: m, name };
  }
  return { kind: 'unknown-chinese' };
}

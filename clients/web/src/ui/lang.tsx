// The language of parts (WCAG 3.1.2, review of 2026-12-05): Chinese words inside English text (a
// move's notation, a piece's character, "Xiangqi 象棋", a tiebreak's Chinese name) are marked
// lang="zh-CN", so that a screen reader reads them with a Chinese voice instead of spelling out
// "Chinese letter" or skipping them. On a Chinese page the mark repeats the page's own language.
import type { ComponentChildren } from 'preact';

export const ZH = 'zh-CN';
const CJK = '[\\u3400-\\u9fff\\u3000-\\u303f\\uff00-\\uffef]';
// A run of Chinese: characters, and the spaces, dots and brackets between them ("楚 河",
// "车９进１(翻象)").
const RUN = new RegExp(`${CJK}+(?:[\\s·()]*${CJK}+)*\\)?`, 'g');

// The text with each run of Chinese in a <span lang="zh-CN">; as it is when it has none.
export function zhParts(text: string): ComponentChildren {
  const out: ComponentChildren[] = [];
  let at = 0;
  for (const m of text.matchAll(RUN)) {
    let run = m[0];
    // A closing bracket belongs to the run only when the run opened it.
    if (run.endsWith(')') && (run.match(/\(/g)?.length ?? 0) < (run.match(/\)/g)?.length ?? 0)) run = run.slice(0, -1);
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(<span lang={ZH}>{run}</span>);
    at = m.index + run.length;
  }
  if (!out.length) return text;
  if (at < text.length) out.push(text.slice(at));
  return out;
}

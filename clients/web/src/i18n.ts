// Every user-visible string, in English and Chinese. t('key', {n: 1}) fills {n}.
import { useEffect, useState } from 'preact/hooks';

const en = {
  appTitle: 'Xiangqi · Jieqi',
  lobby: 'Lobby',
  tournaments: 'Tournaments',
  admin: 'Admin',
  language: '中文',
  signIn: 'Sign in',
  signOut: 'Sign out',
  playAsGuest: 'Play as guest',
  guestName: 'Guest name (optional)',
  userName: 'User name',
  password: 'Password',
  login: 'Log in',
  register: 'Create account',
  signedInAs: 'Signed in as {name}',
  guest: 'guest',
  openSeeks: 'Open seeks',
  noSeeks: 'No open seeks. Create one!',
  liveGames: 'Live games',
  noGames: 'No games being played.',
  createSeek: 'Create seek',
  challenge: 'Challenge',
  challengeUser: 'Opponent user name',
  variant: 'Game',
  xiangqi: 'Xiangqi 象棋',
  jieqi: 'Jieqi 揭棋',
  minutes: 'Minutes',
  increment: 'Increment (s)',
  color: 'Your colour',
  random: 'Random',
  red: 'Red',
  black: 'Black',
  ruleset: 'Rules',
  accept: 'Accept',
  cancel: 'Cancel',
  watch: 'Watch',
  waitingForOpponent: 'Waiting for an opponent…',
  vs: 'vs',
  plies: '{n} plies',
  openGame: 'Open game by id',
  go: 'Go',
  loading: 'Loading…',
  reconnecting: 'Connection lost — reconnecting…',
  connecting: 'Connecting…',
  online: 'Online',
  yourTurn: 'Your move',
  theirTurn: 'Opponent to move',
  redToMove: 'Red to move',
  blackToMove: 'Black to move',
  spectating: 'Watching',
  resign: 'Resign',
  confirmResign: 'Really resign?',
  offerDraw: 'Offer draw',
  acceptDraw: 'Accept draw',
  declineDraw: 'Decline',
  drawOffered: 'Draw offered by {side}',
  youOfferedDraw: 'You offered a draw',
  abort: 'Abort',
  claimVictory: 'Claim victory (opponent gone)',
  flip: 'Flip board',
  moves: 'Moves',
  chinese: 'Chinese',
  iccs: 'ICCS',
  captured: 'Captured',
  unknownPiece: 'unknown face-down piece',
  commitment: 'Shuffle commitment',
  verify: 'Verify',
  verified: 'Verified: the server did not change the hidden pieces',
  notVerified: 'Mismatch: the published assignment does not match the commitment!',
  commitmentPending: 'Published at the end of the game',
  assignment: 'Assignment',
  salt: 'Salt',
  download: 'Download record',
  downloadText: 'Download moves (text)',
  replay: 'Replay',
  first: 'First',
  prev: 'Back',
  next: 'Forward',
  last: 'Last',
  gameOver: 'Game over',
  redWins: 'Red wins',
  blackWins: 'Black wins',
  draw: 'Draw',
  aborted: 'Game aborted',
  sending: 'Sending move…',
  comingLater: 'Coming soon: tournaments and the admin dashboard need the tournament service, which is not connected yet.',
  unknownGame: 'No such game.',
  timeControl: 'Time',
  you: 'you',
  youPlay: 'you play {side}',
  resultSep: ': ',
  'error.ILLEGAL_MOVE': 'That move is not legal.',
  'error.NOT_YOUR_TURN': 'It is not your turn.',
  'error.OFFER_NOT_ALLOWED': 'A draw offer is not allowed now.',
  'error.ABORT_NOT_ALLOWED': 'Too late to abort: both sides have moved.',
  'error.CLAIM_NOT_ALLOWED': 'Your opponent is connected or left only a moment ago.',
  'error.STORAGE_UNAVAILABLE': 'The server could not save the move; it was not played. Try again.',
  'error.BAD_CREDENTIALS': 'Wrong user name or password.',
  'error.NAME_TAKEN': 'That name is taken.',
  'error.UNKNOWN_SEEK': 'That seek is gone.',
  'error.RATE_LIMITED': 'Too many requests; slow down.',
  'error.GAME_OVER': 'The game is over.',
  'error.disconnected': 'Not connected; try again in a moment.',
  'reason.checkmate': 'checkmate',
  'reason.stalemate': 'stalemate (no legal move)',
  'reason.perpetual_check': 'perpetual check',
  'reason.perpetual_chase': 'perpetual chase',
  'reason.perpetual_mate_threat': 'perpetual mate threat',
  'reason.repetition_draw': 'repetition',
  'reason.move_limit': 'move limit without capture',
  'reason.dead_material': 'insufficient material',
  'reason.resignation': 'resignation',
  'reason.timeout': 'time out',
  'reason.timeout_draw': 'time out, opponent cannot mate',
  'reason.agreement': 'agreement',
  'reason.abort': 'aborted',
  'reason.adjudication': 'adjudication',
  'reason.forfeit': 'forfeit',
};

export type Key = keyof typeof en;

const zh: Record<Key, string> = {
  appTitle: '象棋 · 揭棋',
  lobby: '大厅',
  tournaments: '比赛',
  admin: '管理',
  language: 'English',
  signIn: '登录',
  signOut: '退出',
  playAsGuest: '游客进入',
  guestName: '游客昵称（可选）',
  userName: '用户名',
  password: '密码',
  login: '登录',
  register: '注册',
  signedInAs: '已登录：{name}',
  guest: '游客',
  openSeeks: '等待对手的棋局',
  noSeeks: '暂无邀请，来创建一个吧！',
  liveGames: '正在进行的棋局',
  noGames: '暂无进行中的棋局。',
  createSeek: '创建邀请',
  challenge: '挑战',
  challengeUser: '对手用户名',
  variant: '棋种',
  xiangqi: '象棋 Xiangqi',
  jieqi: '揭棋 Jieqi',
  minutes: '分钟',
  increment: '加秒',
  color: '执子',
  random: '随机',
  red: '红方',
  black: '黑方',
  ruleset: '规则',
  accept: '接受',
  cancel: '取消',
  watch: '观战',
  waitingForOpponent: '等待对手…',
  vs: '对',
  plies: '{n} 步',
  openGame: '按编号打开棋局',
  go: '打开',
  loading: '加载中…',
  reconnecting: '连接中断，正在重连…',
  connecting: '连接中…',
  online: '在线',
  yourTurn: '轮到你走',
  theirTurn: '对方走棋',
  redToMove: '红方走棋',
  blackToMove: '黑方走棋',
  spectating: '观战中',
  resign: '认输',
  confirmResign: '确定认输？',
  offerDraw: '提和',
  acceptDraw: '同意和棋',
  declineDraw: '拒绝',
  drawOffered: '{side}提和',
  youOfferedDraw: '你已提和',
  abort: '取消对局',
  claimVictory: '对方离线，判胜',
  flip: '翻转棋盘',
  moves: '着法',
  chinese: '中文',
  iccs: 'ICCS',
  captured: '吃子',
  unknownPiece: '未知暗子',
  commitment: '洗牌承诺',
  verify: '验证',
  verified: '验证通过：服务器没有改动暗子',
  notVerified: '不一致：公布的布子与承诺不符！',
  commitmentPending: '终局时公布',
  assignment: '布子',
  salt: '盐值',
  download: '下载棋谱',
  downloadText: '下载着法（文本）',
  replay: '复盘',
  first: '开局',
  prev: '后退',
  next: '前进',
  last: '最新',
  gameOver: '对局结束',
  redWins: '红胜',
  blackWins: '黑胜',
  draw: '和棋',
  aborted: '对局已取消',
  sending: '正在发送着法…',
  comingLater: '即将推出：比赛与管理后台需要赛事服务，目前尚未接入。',
  unknownGame: '没有这盘棋。',
  timeControl: '用时',
  you: '你',
  youPlay: '你执{side}',
  resultSep: '：',
  'error.ILLEGAL_MOVE': '这步棋不合规则。',
  'error.NOT_YOUR_TURN': '还没轮到你。',
  'error.OFFER_NOT_ALLOWED': '现在不能提和。',
  'error.ABORT_NOT_ALLOWED': '双方都已走棋，不能取消。',
  'error.CLAIM_NOT_ALLOWED': '对方仍在线或刚刚离开。',
  'error.STORAGE_UNAVAILABLE': '服务器未能保存这步棋，未走出，请重试。',
  'error.BAD_CREDENTIALS': '用户名或密码错误。',
  'error.NAME_TAKEN': '该用户名已被占用。',
  'error.UNKNOWN_SEEK': '该邀请已不存在。',
  'error.RATE_LIMITED': '请求太频繁，请稍候。',
  'error.GAME_OVER': '对局已结束。',
  'error.disconnected': '未连接，请稍后再试。',
  'reason.checkmate': '将死',
  'reason.stalemate': '困毙',
  'reason.perpetual_check': '长将',
  'reason.perpetual_chase': '长捉',
  'reason.perpetual_mate_threat': '长杀',
  'reason.repetition_draw': '循环不变作和',
  'reason.move_limit': '自然限着',
  'reason.dead_material': '双方无进攻子力',
  'reason.resignation': '认输',
  'reason.timeout': '超时',
  'reason.timeout_draw': '超时（对方无法将死，判和）',
  'reason.agreement': '双方议和',
  'reason.abort': '取消',
  'reason.adjudication': '裁决',
  'reason.forfeit': '弃权',
};

export type Lang = 'en' | 'zh';
const tables: Record<Lang, Record<Key, string>> = { en, zh };
const listeners = new Set<() => void>();

// Outside a browser (unit tests) there is no storage and English is used.
const stored = typeof localStorage !== 'undefined' ? (localStorage.getItem('xq.lang') as Lang | null) : null;
const browserZh = typeof navigator !== 'undefined' && navigator.language?.startsWith('zh');
export let lang: Lang = stored || (browserZh ? 'zh' : 'en');

export function setLang(l: Lang) {
  lang = l;
  localStorage.setItem('xq.lang', l);
  document.documentElement.lang = l === 'zh' ? 'zh-CN' : 'en';
  for (const fn of listeners) fn();
}

export function t(key: Key, params: Record<string, string | number> = {}): string {
  return tables[lang][key].replace(/\{(\w+)\}/g, (_, k) => String(params[k] ?? ''));
}

// Reasons the server may add later fall back to the raw word.
export function reasonText(reason: string): string {
  const key = `reason.${reason}` as Key;
  return key in en ? t(key) : reason;
}

// A failed request in the user's language; codes without a text keep the server's words.
export function errorText(e: unknown): string {
  const err = e as { code?: number; message?: string; name?: string };
  const codeName = typeof err?.code === 'number' ? ERROR_NAMES[err.code] : err?.message === 'disconnected' ? 'disconnected' : undefined;
  const key = `error.${codeName}` as Key;
  if (codeName && key in en) return t(key);
  return err?.message ?? String(e);
}

// Mirrors proto ErrorCode numbers (stable by contract) to avoid importing the wire code here.
const ERROR_NAMES: Record<number, string> = {
  3: 'RATE_LIMITED', 7: 'BAD_CREDENTIALS', 8: 'NAME_TAKEN', 12: 'NOT_YOUR_TURN', 13: 'ILLEGAL_MOVE', 14: 'GAME_OVER',
  15: 'UNKNOWN_SEEK', 16: 'OFFER_NOT_ALLOWED', 17: 'ABORT_NOT_ALLOWED', 18: 'CLAIM_NOT_ALLOWED', 20: 'STORAGE_UNAVAILABLE',
};

export function useLang(): Lang {
  const [l, setL] = useState(lang);
  useEffect(() => {
    const fn = () => setL(lang);
    listeners.add(fn);
    return () => void listeners.delete(fn);
  }, []);
  return l;
}

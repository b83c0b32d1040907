// The generated wire types (from proto/xq.proto, see scripts/gen-proto.mjs) under short names.
// Decoded proto3 messages always carry their scalars (defaults on the prototype) while sub-messages
// may be null; `Decoded` states exactly that, so the code need not null-check every number.
import { xq } from '../gen/xq.js';

type Fix<V> = V extends (infer U)[] ? Decoded<U>[] : V extends Uint8Array ? V : V extends object ? Decoded<V> | null : V;
export type Decoded<T> = { [K in Exclude<keyof T, '$unknowns'>]-?: Fix<NonNullable<T[K]>> };

export const pb = xq.v1;
export type ClientBody = xq.v1.ClientMessage.$Properties;
export type ServerMessage = Decoded<xq.v1.ServerMessage.$Properties>;
export type GameState = Decoded<xq.v1.GameState.$Properties>;
export type GameEvent = Decoded<xq.v1.GameEvent.$Properties>;
export type MoveView = Decoded<xq.v1.MoveView.$Properties>;
export type ClockState = Decoded<xq.v1.ClockState.$Properties>;
export type GameResult = Decoded<xq.v1.GameResult.$Properties>;
export type Seek = Decoded<xq.v1.Seek.$Properties>;
export type GameSummary = Decoded<xq.v1.GameSummary.$Properties>;
export type Player = Decoded<xq.v1.Player.$Properties>;
export type ChatLine = Decoded<xq.v1.ChatLine.$Properties>;
export const ChatRoom = xq.v1.ChatLine.Room;
export const Side = xq.v1.Side;
export const Variant = xq.v1.Variant;
export const Outcome = xq.v1.Outcome;
export const ErrorCode = xq.v1.ErrorCode;
export const EventKind = xq.v1.GameEvent.Kind;

export function decodeServer(bytes: Uint8Array): ServerMessage {
  return pb.ServerMessage.decode(bytes) as unknown as ServerMessage;
}

import { beforeEach, describe, expect, it } from 'vitest';
import { chatHidden, muteUser, mutedUsers, setChatHidden, unmuteAll } from '../src/game/chat_prefs';

// A stand-in for the browser's localStorage (the tests run in node).
class MemoryStorage {
  private m = new Map<string, string>();
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, String(v));
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
}

describe('chat preferences', () => {
  beforeEach(() => {
    (globalThis as { localStorage?: unknown }).localStorage = new MemoryStorage();
  });

  it('hides and shows the chat', () => {
    expect(chatHidden()).toBe(false);
    setChatHidden(true);
    expect(chatHidden()).toBe(true);
    setChatHidden(false);
    expect(chatHidden()).toBe(false);
  });

  it('mutes each writer once, keeps the latest 500, and unmutes all', () => {
    muteUser('u-1');
    muteUser('u-1');
    muteUser('g-2');
    expect(mutedUsers()).toEqual(['u-1', 'g-2']);
    for (let i = 0; i < 600; i++) muteUser(`u-${i + 10}`);
    const list = mutedUsers();
    expect(list.length).toBe(500);
    expect(list[list.length - 1]).toBe('u-609');
    unmuteAll();
    expect(mutedUsers()).toEqual([]);
  });

  it('reads a damaged entry as nobody muted', () => {
    localStorage.setItem('xq.chat.muted', '{not json');
    expect(mutedUsers()).toEqual([]);
    localStorage.setItem('xq.chat.muted', '{"a":1}');
    expect(mutedUsers()).toEqual([]);
  });
});

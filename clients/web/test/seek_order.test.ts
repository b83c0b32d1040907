import { describe, expect, it } from 'vitest';
import { peopleFirst } from '../src/lobby/seek_order';
import type { Seek } from '../src/net/proto';

const seek = (id: string, bot = false): Seek => ({ seekId: id, owner: { userId: `u-${id}`, name: id, bot } }) as Seek;

describe("the lobby's open seeks", () => {
  it("lists people's seeks before the computers', each in the server's order", () => {
    const order = peopleFirst([seek('b1', true), seek('p1'), seek('b2', true), seek('p2'), seek('p3')]).map((s) => s.seekId);
    expect(order).toEqual(['p1', 'p2', 'p3', 'b1', 'b2']);
  });

  it('leaves a list of people only, or of computers only, as it was', () => {
    expect(peopleFirst([seek('p2'), seek('p1')]).map((s) => s.seekId)).toEqual(['p2', 'p1']);
    expect(peopleFirst([seek('b2', true), seek('b1', true)]).map((s) => s.seekId)).toEqual(['b2', 'b1']);
    expect(peopleFirst([])).toEqual([]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignExposedNames, MAX_EXPOSED_NAME_LENGTH, toExposedName } from './exposed-name';

describe('toExposedName', () => {
  it('joins server and tool with __ and replaces characters outside [A-Za-z0-9_.-]', () => {
    expect(toExposedName('github', 'create_issue')).toBe('github__create_issue');
    expect(toExposedName('my server', 'get/weather?')).toBe('my_server__get_weather_');
    expect(toExposedName('é', 'a.b-c')).toBe('___a.b-c');
  });

  it('cuts a name over 128 characters and ends it with a stable hash', () => {
    const long = 'x'.repeat(200);
    const name = toExposedName('server', long);
    expect(name).toHaveLength(MAX_EXPOSED_NAME_LENGTH);
    expect(name).toMatch(/^server__x+_[0-9a-f]{8}$/);
    expect(toExposedName('server', long)).toBe(name);
    expect(toExposedName('server', `${long}y`)).not.toBe(name);
  });

  it('always gives a valid name', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), (server, tool) => {
        expect(toExposedName(server, tool)).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
      }),
    );
  });
});

/** A hang guard, not a speed gate: counting suffixes from 2 for each tool took minutes here. */
const COLLISIONS_HANG_GUARD = 20_000;

describe('assignExposedNames', () => {
  it('keeps the first of two colliding names and suffixes the later ones in order', () => {
    const names = assignExposedNames([
      { server: 'a', tool: 'get user' },
      { server: 'a', tool: 'get_user' },
      { server: 'a', tool: 'get?user' },
      { server: 'b', tool: 'get_user' },
    ]);
    expect(names).toEqual(['a__get_user', 'a__get_user_2', 'a__get_user_3', 'b__get_user']);
  });

  it('keeps suffixed long names within 128 characters and unique', () => {
    const long = 'y'.repeat(300);
    const names = assignExposedNames([
      { server: 's', tool: long },
      { server: 's', tool: long.replace(/^y/, '?') },
    ]);
    expect(new Set(names).size).toBe(2);
    for (const name of names) expect(name.length).toBeLessThanOrEqual(MAX_EXPOSED_NAME_LENGTH);
  });

  it('never hands out a reserved name', () => {
    expect(assignExposedNames([{ server: 'a', tool: 'b' }], ['a__b'])).toEqual(['a__b_2']);
  });

  it('names as counting suffixes from 2 for every tool would', () => {
    /** The rule written plainly (quadratic), as the reference. */
    const reference = (tools: { server: string; tool: string }[], reserved: string[]) => {
      const taken = new Set(reserved);
      return tools.map(({ server, tool }) => {
        const base = toExposedName(server, tool);
        let name = base;
        for (let suffix = 2; taken.has(name); suffix++) {
          const tail = `_${suffix}`;
          name = `${base.slice(0, MAX_EXPOSED_NAME_LENGTH - tail.length)}${tail}`;
        }
        taken.add(name);
        return name;
      });
    };
    // Few distinct names, so that collisions (and names that are another's suffixed form) abound.
    const part = fc.constantFrom(
      'a',
      'a_2',
      'a 2',
      'a_3',
      'b',
      'x'.repeat(130),
      `${'x'.repeat(127)}_2`,
    );
    const tool = fc.record({ server: fc.constantFrom('s', 's__a'), tool: part });
    fc.assert(
      fc.property(
        fc.array(tool, { maxLength: 40 }),
        fc.array(
          part.map((name) => `s__${name}`),
          { maxLength: 3 },
        ),
        (tools, reserved) => {
          expect(assignExposedNames(tools, reserved)).toEqual(reference(tools, reserved));
        },
      ),
    );
  });

  it(
    'names 100,000 tools that all collide (an upstream listing one name over and over)',
    () => {
      const names = assignExposedNames(
        Array.from({ length: 100_000 }, () => ({ server: 'up', tool: 'dup' })),
      );
      expect(names.slice(0, 3)).toEqual(['up__dup', 'up__dup_2', 'up__dup_3']);
      expect(names.at(-1)).toBe('up__dup_100000');
      expect(new Set(names).size).toBe(100_000);
    },
    COLLISIONS_HANG_GUARD,
  );
});

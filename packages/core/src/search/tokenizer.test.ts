import fc from 'fast-check';
import { PROPERTY_TEST_TIMEOUT } from 'tool-search-testing/property-runs';
import { describe, expect, it } from 'vitest';
import { createTokenizer, isNfkcInert, normalizeText, splitIdentifier } from './tokenizer';

describe('splitIdentifier', () => {
  it.each([
    ['getWeatherForecast', ['get', 'weather', 'forecast']],
    ['get_weather_forecast', ['get', 'weather', 'forecast']],
    ['github.create-issue', ['github', 'create', 'issue']],
    ['weather__forecast', ['weather', 'forecast']],
    ['HTMLParser', ['html', 'parser']],
    ['listS3Buckets', ['list', 's3', 'buckets']],
  ])('splits %s into its words', (identifier, words) => {
    expect(splitIdentifier(identifier)).toEqual(words);
  });
});

describe('normalizeText', () => {
  it('folds case, width and Latin diacritics', () => {
    expect(normalizeText('Crème Brûlée ＡＰＩ Straße')).toBe('creme brulee api strasse');
  });

  it('keeps Japanese voicing marks', () => {
    expect(normalizeText('ガイド')).toBe('ガイド');
  });
});

describe('createTokenizer', () => {
  const tokenize = createTokenizer();

  it('drops stop words and stems inflections to one stem', () => {
    expect(tokenize('the issues')).toEqual(['issu']);
    expect(
      new Set(['creates', 'created', 'creating', 'create'].map((word) => tokenize(word)[0])),
    ).toEqual(new Set(['creat']));
  });

  it('indexes a camelCase word whole and by its parts', () => {
    expect(tokenize('GitHub')).toEqual(['github', 'git', 'hub']);
  });

  it('segments Chinese into overlapping bigrams, and a lone character as itself', () => {
    expect(tokenize('天气预报')).toEqual(['天气', '气预', '预报']);
    expect(tokenize('书 and 笔')).toEqual(['书', '笔']);
  });

  it('separates Latin words inside a Han run', () => {
    expect(tokenize('查询API密钥')).toEqual(expect.arrayContaining(['查询', 'api', '密钥']));
  });

  it('splits CJK text at punctuation, including the katakana middle dot', () => {
    expect(tokenize('データ・ベース')).toEqual(['デー', 'ータ', 'ベー', 'ース']);
  });

  it('segments Japanese with kana', () => {
    expect(tokenize('天気予報を調べる')).toEqual(expect.arrayContaining(['天気', '予報']));
  });

  it('uses dictionary words with the segmenter option', () => {
    expect(createTokenizer({ cjk: 'segmenter' })('北京天气')).toContain('北京');
  });

  it('segments Thai with Intl.Segmenter', () => {
    expect(tokenize('สวัสดีครับ').length).toBeGreaterThan(1);
  });

  it('keeps stop words and inflections when told to', () => {
    expect(createTokenizer({ stopWords: false, stem: false })('the issues')).toEqual([
      'the',
      'issues',
    ]);
  });

  it('yields nothing for emoji, punctuation and empty text', () => {
    expect(tokenize('🚀🔥 ... ??? ')).toEqual([]);
    expect(tokenize('')).toEqual([]);
  });

  it('never throws and is deterministic on any string', { timeout: PROPERTY_TEST_TIMEOUT }, () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        const first = tokenize(text);
        expect(tokenize(text)).toEqual(first);
        for (const term of first) expect(term.length).toBeGreaterThan(0);
      }),
    );
  });

  it('handles lone surrogates and control characters', () => {
    expect(() => tokenize('\ud800abc\u0000def\u200b')).not.toThrow();
  });
});

describe('splitIdentifier on ASCII camelCase', () => {
  it('splits as the Unicode camelCase rule does', { timeout: PROPERTY_TEST_TIMEOUT }, () => {
    // The rule the tokenizer documents, as a regular expression; ASCII words are scanned by hand.
    const boundary = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
    const alphabet = fc.constantFrom(...'aAbBzZ09xXyY'.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { minLength: 1, maxLength: 16 }), (chars) => {
        const word = chars.join('');
        const expected = word.split(boundary).map((part) => part.toLowerCase());
        expect(splitIdentifier(word)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
    expect(splitIdentifier('HTMLParser2Go')).toEqual(['html', 'parser2', 'go']);
  });
});

describe('isNfkcInert', () => {
  it('accepts only text whose terms NFKC cannot change', () => {
    const word = /^[\p{L}\p{N}\p{M}]$/u;
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      if (!isNfkcInert(char)) continue;
      const normalized = char.normalize('NFKC');
      if (normalized === char) continue;
      // Otherwise one ASCII separator, as the character itself was one: the same runs either way.
      expect(normalized).toHaveLength(1);
      expect(normalized.charCodeAt(0)).toBeLessThan(0x80);
      expect(word.test(normalized) || normalized === "'").toBe(false);
      expect(word.test(char)).toBe(false);
    }
    expect(isNfkcInert('查询城市的天气，返回（摄氏度）。')).toBe(true);
    expect(isNfkcInert('ＡＰＩ密钥')).toBe(false);
    expect(isNfkcInert('東京の天気')).toBe(false);
  });

  it('tokenizes inert text exactly as its NFKC form', { timeout: PROPERTY_TEST_TIMEOUT }, () => {
    const tokenize = createTokenizer();
    const alphabet = fc.constantFrom(
      ...`天气预报查询城市的温度摄氏getWeather_id 12'，。、（）：；！？“”‘’—\u3000《》「」`.split(
        '',
      ),
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 30 }), (chars) => {
        const text = chars.join('');
        expect(isNfkcInert(text)).toBe(true);
        // A no-break space is not inert: the second text takes the NFKC path, and adds no term.
        expect(tokenize(text)).toEqual(tokenize(`${text} \u00a0`));
      }),
      { numRuns: 300 },
    );
    for (const text of ["don't stop", 'it’s 天气，API密钥', "a'b'c d''e"]) {
      expect(tokenize(text)).toEqual(tokenize(`${text} \u00a0`));
    }
  });
});

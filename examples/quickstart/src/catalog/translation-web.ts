import { choose, clamp, hash, n, pick, s, slug, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, str, tool } from './types';

const LANGS = ['en', 'es', 'fr', 'de', 'it', 'pt', 'ja', 'zh', 'ko', 'ar'] as const;
const langProp = (description: string) => enumOf(LANGS, description);
const urlProp = str('Absolute http(s) URL.', { format: 'uri' });
const hostOf = (url: string) => url.replace(/^https?:\/\//, '').split('/')[0] || 'example.com';

export const translationWebTools: ExampleTool[] = [
  tool(
    'translate_text',
    'Translate text into a target language, auto-detecting the source language if not given.',
    {
      text: str('Text to translate.'),
      targetLang: langProp('Language to translate into.'),
      sourceLang: langProp('Language of the input; detected when omitted.'),
      formality: enumOf(['default', 'formal', 'informal'], 'Tone, where the language supports it.'),
    },
    ['text', 'targetLang'],
    (input) => {
      const text = s(input, 'text');
      const target = s(input, 'targetLang', 'en');
      return {
        translatedText: `[${target}] ${text}`,
        detectedSourceLang: s(input, 'sourceLang') || choose(text, LANGS),
        characters: text.length,
      };
    },
  ),
  tool(
    'translate_detect_language',
    'Detect the language of a piece of text with a confidence score.',
    { text: str('Text to analyse.') },
    ['text'],
    (input) => {
      const text = s(input, 'text', 'x');
      return {
        language: choose(text, LANGS),
        confidence: Number((0.6 + (hash(text) % 40) / 100).toFixed(2)),
      };
    },
  ),
  tool(
    'translateBatch',
    'Translate several strings at once into the same target language.',
    { texts: arr(str('Text.'), 'Strings to translate.'), targetLang: langProp('Target language.') },
    ['texts', 'targetLang'],
    (input) => ({
      translations: strings(input, 'texts').map((t) => `[${s(input, 'targetLang', 'en')}] ${t}`),
    }),
  ),
  tool(
    'translate.list-languages',
    'List the languages supported for translation.',
    { displayLang: langProp('Language for the display names.') },
    [],
    () => ({
      languages: LANGS.map((code) => ({
        code,
        supportsFormality: ['de', 'fr', 'es', 'it'].includes(code),
      })),
    }),
  ),
  tool(
    'translate__glossary_create',
    'Create a glossary so specific terms are always translated the same way.',
    {
      name: str('Glossary name.'),
      sourceLang: langProp('Source language.'),
      targetLang: langProp('Target language.'),
      entries: arr(str('Pair written as "source=target".'), 'Term pairs.'),
    },
    ['name', 'sourceLang', 'targetLang', 'entries'],
    (input) => ({
      glossaryId: `gls_${hash(s(input, 'name')).toString(36)}`,
      entryCount: strings(input, 'entries').length,
    }),
  ),
  tool(
    'web_search',
    'Search the web and return the top results with titles, URLs and snippets.',
    {
      query: str('Search query.'),
      count: int('Number of results.', 1, 20),
      freshness: enumOf(
        ['day', 'week', 'month', 'any'],
        'Only results published within this period.',
      ),
      site: str('Restrict results to one domain.'),
    },
    ['query'],
    (input) => {
      const query = s(input, 'query', 'x');
      const count = clamp(n(input, 'count', 3), 1, 5);
      const site = s(input, 'site');
      return {
        results: Array.from({ length: count }, (_, i) => ({
          title: `${query} – result ${i + 1}`,
          url: `https://${site || `site${pick(query + i, 1, 99)}.example.com`}/${slug(query)}`,
          snippet: `An overview of ${query}…`,
        })),
      };
    },
  ),
  tool(
    'web_fetch_page',
    'Fetch a web page and return its readable text content as Markdown.',
    { url: urlProp, maxChars: int('Truncate the content to this many characters.', 100, 100000) },
    ['url'],
    (input) => {
      const url = s(input, 'url', 'https://example.com');
      return {
        url,
        title: `Page at ${hostOf(url)}`,
        status: 200,
        markdown: `# ${hostOf(url)}\n\nExample content.`,
      };
    },
  ),
  tool(
    'webExtractLinks',
    'Extract all hyperlinks from a web page, optionally only same-site links.',
    { url: urlProp, sameSiteOnly: bool('Drop links to other domains.') },
    ['url'],
    (input) => {
      const host = hostOf(s(input, 'url'));
      return { links: ['/about', '/pricing', '/blog'].map((p) => `https://${host}${p}`) };
    },
  ),
  tool(
    'webScreenshot',
    'Capture a screenshot of a web page at a given viewport size.',
    {
      url: urlProp,
      width: int('Viewport width in pixels.', 320, 3840),
      fullPage: bool('Capture the whole scrollable page.'),
    },
    ['url'],
    (input) => ({
      imageUrl: `https://shots.example.com/${hash(s(input, 'url')).toString(36)}.png`,
      width: clamp(n(input, 'width', 1280), 320, 3840),
      fullPage: input.fullPage === true,
    }),
  ),
  tool(
    'web.check-status',
    'Check whether a URL is reachable and report its HTTP status and response time.',
    { url: urlProp },
    ['url'],
    (input) => ({
      url: s(input, 'url'),
      status: 200,
      responseMs: pick(s(input, 'url'), 40, 900),
      tlsValid: true,
    }),
  ),
  tool(
    'web.summarize-page',
    'Fetch a page and return a short summary of its main content.',
    { url: urlProp, sentences: int('Summary length in sentences.', 1, 10) },
    ['url'],
    (input) => ({
      url: s(input, 'url'),
      summary: `This page on ${hostOf(s(input, 'url'))} describes its products and pricing.`,
      sentences: clamp(n(input, 'sentences', 3), 1, 10),
    }),
  ),
  tool(
    'web__search_news',
    'Search recent news articles about a topic.',
    { query: str('Topic.'), language: langProp('Article language.'), fromDate: str('YYYY-MM-DD.') },
    ['query'],
    (input) => {
      const query = s(input, 'query', 'x');
      return {
        articles: [1, 2].map((i) => ({
          title: `${query}: what happened ${i === 1 ? 'today' : 'this week'}`,
          source: choose(query + i, ['Daily Example', 'The Sample Times', 'Newswire'] as const),
          url: `https://news.example.com/${slug(query)}-${i}`,
        })),
      };
    },
  ),
  tool(
    'web__dictionary_lookup',
    'Look up a word’s definitions, part of speech and pronunciation.',
    { word: str('Word to define.'), language: langProp('Dictionary language.') },
    ['word'],
    (input) => {
      const word = s(input, 'word', 'example');
      return {
        word,
        phonetic: `/${word.toLowerCase()}/`,
        definitions: [
          {
            partOfSpeech: choose(word, ['noun', 'verb', 'adjective'] as const),
            text: `A meaning of “${word}”.`,
          },
        ],
      };
    },
  ),
];

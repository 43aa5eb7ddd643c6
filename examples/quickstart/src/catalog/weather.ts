import { choose, clamp, hash, n, pick, s, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, num, obj, str, tool } from './types';

const SUMMARIES = ['Sunny', 'Partly cloudy', 'Overcast', 'Light rain', 'Showers', 'Windy'] as const;

/** Sum of the city's character codes: the seed for every weather value. */
const citySeed = (city: string): number => {
  let total = 0;
  for (let i = 0; i < city.length; i++) total += city.charCodeAt(i);
  return total;
};

const dayForecast = (city: string, day: number) => {
  const seed = citySeed(city) + day * 7;
  const lowC = (seed % 15) - 2;
  const highC = lowC + 4 + (seed % 9);
  const summary = SUMMARIES[seed % SUMMARIES.length] ?? 'Sunny';
  return { day, highC, lowC, summary };
};

export const weatherTools: ExampleTool[] = [
  tool(
    'weather_get_forecast',
    'Get the daily weather forecast for a city for up to 10 days, with highs, lows and a short summary.',
    {
      city: str('City name, optionally with country, e.g. "Lisbon" or "Paris, FR".'),
      days: int('Number of days to forecast.', 1, 10),
    },
    ['city'],
    (input) => {
      const city = s(input, 'city', 'Unknown');
      const days = clamp(n(input, 'days', 3), 1, 10);
      return { city, days: Array.from({ length: days }, (_, i) => dayForecast(city, i + 1)) };
    },
  ),
  tool(
    'weather_get_current',
    'Get the current weather conditions for a city: temperature, humidity, wind and a summary.',
    {
      city: str('City name, e.g. "Berlin".'),
      units: enumOf(['metric', 'imperial'], 'Unit system for the result.'),
    },
    ['city'],
    (input) => {
      const city = s(input, 'city', 'Unknown');
      const seed = citySeed(city);
      const tempC = (seed % 25) - 3;
      const imperial = s(input, 'units') === 'imperial';
      return {
        city,
        temperature: imperial ? Math.round(tempC * 1.8 + 32) : tempC,
        units: imperial ? 'imperial' : 'metric',
        humidityPct: 40 + (seed % 50),
        windKph: seed % 35,
        summary: SUMMARIES[seed % SUMMARIES.length] ?? 'Sunny',
      };
    },
  ),
  tool(
    'weather_get_hourly',
    'Get an hour-by-hour temperature and precipitation outlook for the next hours in a city.',
    { city: str('City name.'), hours: int('How many hours ahead to return.', 1, 48) },
    ['city'],
    (input) => {
      const city = s(input, 'city', 'Unknown');
      const seed = citySeed(city);
      const hours = clamp(n(input, 'hours', 6), 1, 48);
      return {
        city,
        hours: Array.from({ length: hours }, (_, h) => ({
          hour: h,
          tempC: (seed % 20) + ((h * 3) % 7) - 3,
          precipitationPct: (seed + h * 11) % 100,
        })),
      };
    },
  ),
  tool(
    'weatherGetAlerts',
    'List active severe weather alerts (storms, heat, flooding) issued for a region.',
    {
      region: str('Region, state or city to check for alerts.'),
      severity: enumOf(['minor', 'moderate', 'severe', 'extreme'], 'Minimum severity to include.'),
    },
    ['region'],
    (input) => {
      const region = s(input, 'region', 'Unknown');
      const count = hash(region) % 3;
      return {
        region,
        alerts: Array.from({ length: count }, (_, i) => ({
          id: `alert-${hash(region + i) % 10000}`,
          event: choose(region + i, ['Wind Advisory', 'Heat Warning', 'Flood Watch'] as const),
          severity: s(input, 'severity', 'moderate'),
        })),
      };
    },
  ),
  tool(
    'weather.air-quality',
    'Get the air quality index and main pollutant concentrations for a city.',
    { city: str('City name.'), includePollutants: bool('Include per-pollutant readings.') },
    ['city'],
    (input) => {
      const city = s(input, 'city', 'Unknown');
      const aqi = pick(city, 10, 180);
      const result: Record<string, unknown> = {
        city,
        aqi,
        category: aqi <= 50 ? 'Good' : aqi <= 100 ? 'Moderate' : 'Unhealthy',
      };
      if (input.includePollutants === true) {
        result.pollutants = { pm25: aqi / 4, pm10: aqi / 2, o3: aqi / 3 };
      }
      return result;
    },
  ),
  tool(
    'weather__get_historical',
    'Look up the observed weather for a city on a past date.',
    { city: str('City name.'), date: str('Date in YYYY-MM-DD format.', { format: 'date' }) },
    ['city', 'date'],
    (input) => {
      const city = s(input, 'city', 'Unknown');
      const date = s(input, 'date', '2024-01-01');
      const seed = citySeed(city + date);
      return { city, date, highC: (seed % 20) + 5, lowC: seed % 10, precipitationMm: seed % 12 };
    },
  ),
  tool(
    'weather_get_uv_index',
    'Get the ultraviolet index forecast for a location, with a sun protection recommendation.',
    { city: str('City name.') },
    ['city'],
    (input) => {
      const city = s(input, 'city', 'Unknown');
      const uv = pick(city, 0, 11);
      return { city, uvIndex: uv, advice: uv >= 6 ? 'Wear sunscreen and a hat' : 'Low risk' };
    },
  ),
  tool(
    'weather_get_sun_times',
    'Get sunrise, sunset and day length for a city on a given date.',
    { city: str('City name.'), date: str('Date in YYYY-MM-DD format.') },
    ['city'],
    (input) => {
      const city = s(input, 'city', 'Unknown');
      const minutes = pick(city, 0, 59);
      return {
        city,
        date: s(input, 'date', '2024-03-01'),
        sunrise: `06:${String(minutes).padStart(2, '0')}`,
        sunset: `18:${String(59 - minutes).padStart(2, '0')}`,
        dayLengthMinutes: 720 + (59 - 2 * minutes),
      };
    },
  ),
  tool(
    'weatherCompareCities',
    'Compare current temperatures across several cities and report the warmest and coldest.',
    { cities: arr(str('City name.'), 'Cities to compare.') },
    ['cities'],
    (input) => {
      const rows = strings(input, 'cities').map((city) => ({
        city,
        tempC: (citySeed(city) % 25) - 3,
      }));
      const sorted = [...rows].sort((a, b) => b.tempC - a.tempC);
      return {
        cities: rows,
        warmest: sorted[0]?.city ?? null,
        coldest: sorted[sorted.length - 1]?.city ?? null,
      };
    },
  ),
  tool(
    'weather.marine-forecast',
    'Get wave height, swell period and water temperature for a coastal point.',
    {
      location: obj(
        { lat: num('Latitude.', -90, 90), lon: num('Longitude.', -180, 180) },
        ['lat', 'lon'],
        'Coastal coordinates.',
      ),
    },
    ['location'],
    (input) => {
      const loc = input.location as Record<string, unknown> | undefined;
      const lat = typeof loc?.lat === 'number' ? loc.lat : 0;
      const lon = typeof loc?.lon === 'number' ? loc.lon : 0;
      const seed = Math.abs(Math.round(lat * 10 + lon * 3));
      return {
        lat,
        lon,
        waveHeightM: (seed % 40) / 10,
        swellPeriodS: 6 + (seed % 10),
        waterTempC: 10 + (seed % 15),
      };
    },
  ),
  tool(
    'weather_get_pollen',
    'Get the pollen count forecast for grass, tree and weed pollen in a city.',
    { city: str('City name.'), days: int('Days ahead to include.', 1, 5) },
    ['city'],
    (input) => {
      const city = s(input, 'city', 'Unknown');
      const days = clamp(n(input, 'days', 1), 1, 5);
      return {
        city,
        days: Array.from({ length: days }, (_, i) => ({
          day: i + 1,
          grass: choose(`${city}g${i}`, ['low', 'medium', 'high'] as const),
          tree: choose(`${city}t${i}`, ['low', 'medium', 'high'] as const),
          weed: choose(`${city}w${i}`, ['low', 'medium', 'high'] as const),
        })),
      };
    },
  ),
  tool(
    'weather__subscribe_alerts',
    'Subscribe a webhook or email address to severe weather alerts for a region.',
    {
      region: str('Region to watch.'),
      channel: enumOf(['email', 'webhook', 'sms'], 'Delivery channel.'),
      target: str('Email address, webhook URL or phone number.'),
    },
    ['region', 'channel', 'target'],
    (input) => ({
      subscriptionId: `wsub_${hash(s(input, 'region') + s(input, 'target')) % 100000}`,
      region: s(input, 'region'),
      channel: s(input, 'channel', 'email'),
      active: true,
    }),
  ),
];

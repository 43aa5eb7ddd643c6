import { choose, clamp, hash, n, pick, record, s, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, num, obj, str, tool } from './types';

const MODES = ['driving', 'walking', 'bicycling', 'transit'] as const;
const latLng = (description: string) =>
  obj(
    { lat: num('Latitude.', -90, 90), lng: num('Longitude.', -180, 180) },
    ['lat', 'lng'],
    description,
  );

/** Deterministic pseudo-coordinates for an address string. */
const coordsFor = (text: string) => ({
  lat: Number((((hash(text) % 18000) - 9000) / 100).toFixed(4)),
  lng: Number((((hash(`${text}#`) % 36000) - 18000) / 100).toFixed(4)),
});

export const mapsTools: ExampleTool[] = [
  tool(
    'maps_geocode',
    'Convert a street address or place name into latitude and longitude.',
    {
      address: str('Address or place, e.g. "1600 Amphitheatre Pkwy, Mountain View".'),
      region: str('Region bias, e.g. "us".'),
    },
    ['address'],
    (input) => {
      const address = s(input, 'address', 'Unknown');
      return {
        formattedAddress: address,
        location: coordsFor(address),
        placeId: `place_${hash(address).toString(36)}`,
      };
    },
  ),
  tool(
    'maps_reverse_geocode',
    'Find the nearest street address for a latitude/longitude pair.',
    { location: latLng('Point to look up.') },
    ['location'],
    (input) => {
      const loc = record(input, 'location');
      const lat = typeof loc.lat === 'number' ? loc.lat : 0;
      const lng = typeof loc.lng === 'number' ? loc.lng : 0;
      return { formattedAddress: `${pick(`${lat},${lng}`, 1, 999)} Example Street`, lat, lng };
    },
  ),
  tool(
    'maps_get_directions',
    'Get turn-by-turn directions between two places for a travel mode.',
    {
      origin: str('Start address or "lat,lng".'),
      destination: str('End address or "lat,lng".'),
      mode: enumOf(MODES, 'Travel mode.'),
      waypoints: arr(str('Intermediate stop.'), 'Stops along the way, in order.'),
      avoid: arr(enumOf(['tolls', 'highways', 'ferries'], 'Feature.'), 'Route features to avoid.'),
    },
    ['origin', 'destination'],
    (input) => {
      const key = s(input, 'origin') + s(input, 'destination');
      const km = pick(key, 1, 400);
      return {
        distanceKm: km,
        durationMinutes: Math.round(km * (s(input, 'mode') === 'walking' ? 12 : 1.2)),
        steps: [
          `Head north from ${s(input, 'origin', 'start')}`,
          ...strings(input, 'waypoints').map((w) => `Continue to ${w}`),
          `Arrive at ${s(input, 'destination', 'destination')}`,
        ],
      };
    },
  ),
  tool(
    'maps_distance_matrix',
    'Compute travel distance and time for every origin–destination pair.',
    {
      origins: arr(str('Address.'), 'Starting points.'),
      destinations: arr(str('Address.'), 'End points.'),
      mode: enumOf(MODES, 'Travel mode.'),
    },
    ['origins', 'destinations'],
    (input) => ({
      rows: strings(input, 'origins').map((o) => ({
        origin: o,
        elements: strings(input, 'destinations').map((d) => ({
          destination: d,
          distanceKm: pick(o + d, 1, 500),
          durationMinutes: pick(`${o}${d}t`, 5, 600),
        })),
      })),
    }),
  ),
  tool(
    'mapsSearchPlaces',
    'Search for places (restaurants, shops, landmarks) near a location by keyword.',
    {
      query: str('What to look for, e.g. "coffee".'),
      near: str('Address or area to search around.'),
      radiusMeters: int('Search radius.', 1, 50000),
      openNow: bool('Only places open now.'),
      minRating: num('Minimum rating from 1 to 5.', 1, 5),
    },
    ['query'],
    (input) => {
      const query = s(input, 'query', 'x');
      const near = s(input, 'near', 'downtown');
      return {
        places: [1, 2, 3].map((i) => ({
          placeId: `place_${hash(query + near + i).toString(36)}`,
          name: `${query.charAt(0).toUpperCase()}${query.slice(1)} Spot ${i}`,
          rating: Number((3 + (hash(query + i) % 20) / 10).toFixed(1)),
          distanceMeters: pick(
            query + near + i,
            50,
            clamp(n(input, 'radiusMeters', 2000), 51, 50000),
          ),
        })),
      };
    },
  ),
  tool(
    'mapsGetPlaceDetails',
    'Get opening hours, phone number, website and reviews for a place.',
    {
      placeId: str('Place id from a search.'),
      fields: arr(str('Field name.'), 'Fields to return.'),
    },
    ['placeId'],
    (input) => {
      const id = s(input, 'placeId', 'place_0');
      return {
        placeId: id,
        phone: `+1 555 ${String(pick(id, 1000, 9999))}`,
        website: `https://${id.replace(/\W/g, '')}.example.com`,
        openingHours: ['Mon–Fri 08:00–18:00', 'Sat 09:00–14:00'],
        rating: Number((3 + (hash(id) % 20) / 10).toFixed(1)),
      };
    },
  ),
  tool(
    'mapsGetTimezone',
    'Get the time zone id and UTC offset for a location.',
    { location: latLng('Point to look up.') },
    ['location'],
    (input) => {
      const lng = record(input, 'location').lng;
      const offset = Math.round((typeof lng === 'number' ? lng : 0) / 15);
      return {
        utcOffsetHours: offset,
        timeZoneId:
          offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`,
      };
    },
  ),
  tool(
    'maps.get-elevation',
    'Get the ground elevation in meters for one or more points.',
    { locations: arr(latLng('Point.'), 'Points to sample.') },
    ['locations'],
    (input) => ({
      results: (Array.isArray(input.locations) ? input.locations : []).map((p, i) => ({
        index: i,
        elevationM: pick(JSON.stringify(p), 0, 3000),
      })),
    }),
  ),
  tool(
    'maps.static-image',
    'Render a static map image URL centred on a location with optional markers.',
    {
      center: str('Address or "lat,lng" at the centre.'),
      zoom: int('Zoom level.', 0, 21),
      markers: arr(str('Address or "lat,lng".'), 'Where to drop pins.'),
      size: enumOf(['320x240', '640x480', '1024x768'], 'Image size in pixels.'),
    },
    ['center'],
    (input) => ({
      url: `https://maps.example.com/static?center=${encodeURIComponent(s(input, 'center'))}&zoom=${n(input, 'zoom', 13)}&size=${s(input, 'size', '640x480')}`,
      markerCount: strings(input, 'markers').length,
    }),
  ),
  tool(
    'maps__autocomplete',
    'Suggest place and address completions for partially typed text.',
    {
      input: str('Text typed so far.'),
      types: enumOf(['address', 'establishment', 'region'], 'Kind.'),
    },
    ['input'],
    (input) => {
      const text = s(input, 'input', 'x');
      return { predictions: ['Street', 'Avenue', 'Square'].map((suffix) => `${text} ${suffix}`) };
    },
  ),
  tool(
    'maps__snap_to_roads',
    'Snap a GPS trace to the most likely roads travelled.',
    {
      path: arr(latLng('GPS fix.'), 'Ordered GPS points.'),
      interpolate: bool('Add points along roads.'),
    },
    ['path'],
    (input) => {
      const points = Array.isArray(input.path) ? input.path.length : 0;
      return {
        snappedPoints: points * (input.interpolate === true ? 3 : 1),
        roadName: choose(String(points), ['Main St', 'High St', 'Route 9'] as const),
      };
    },
  ),
  tool(
    'maps__get_traffic',
    'Get the current traffic level and incidents along a route or area.',
    { area: str('Road, route or neighbourhood.') },
    ['area'],
    (input) => {
      const area = s(input, 'area', 'centre');
      return {
        area,
        congestion: choose(area, ['light', 'moderate', 'heavy'] as const),
        incidents: pick(area, 0, 4),
        delayMinutes: pick(`${area}d`, 0, 35),
      };
    },
  ),
  tool(
    'maps_create_geofence',
    'Create a circular geofence that triggers a webhook when devices enter or leave it.',
    {
      name: str('Geofence name.'),
      center: latLng('Centre of the fence.'),
      radiusMeters: int('Radius in meters.', 10, 100000),
      webhookUrl: str('URL to notify.'),
    },
    ['name', 'center', 'radiusMeters'],
    (input) => ({
      id: `geo_${hash(s(input, 'name')).toString(36)}`,
      name: s(input, 'name'),
      radiusMeters: n(input, 'radiusMeters', 100),
    }),
  ),
];

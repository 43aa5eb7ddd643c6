export * from './adapter-commands';
export * from './adapter-model';
export * from './embeddings-server';
export * from './hostile-inputs';
export * from './large-catalog';
export * from './property-runs';
export * from './recording-fetch';
export * from './store-model';

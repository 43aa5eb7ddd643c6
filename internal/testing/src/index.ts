export * from './adapter-commands';
export * from './adapter-model';
export * from './embeddings-server';
export * from './hostile-inputs';
export * from './prompt-prefix';
export * from './property-runs';
export * from './redis-server';
export * from './store-model';

export * from './primitives';
export * from './page';
export * from './nft';
export * from './dex';
export * from './margin';
export * from './events';
export * from './errors';

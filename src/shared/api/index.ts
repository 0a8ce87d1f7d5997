export * from './primitives';
export * from './page';
export * from './nft';
export * from './dex';
export * from './margin';
export * from './margin-pools';
export * from './events';
export * from './errors';

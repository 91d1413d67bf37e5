// jest: Vite `?url` asset imports (fonts) are a URL string; tests inject loaders instead of fetching it
export default 'asset-url-stub';

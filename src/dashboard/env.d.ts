/** esbuild bundles the stylesheet imported by main.tsx into main.css. */
declare module '*.css';

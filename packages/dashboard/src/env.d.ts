// Stylesheets imported for their effect; Vite turns them into linked .css files.
declare module '*.css';

export { createSocialPubMcpServer, INSTRUCTIONS, MAX_TOOL_INPUT_ELEMENTS, type SocialPubMcpOptions } from './server';
export { BackendError, type CallOptions, type EventFollowParams, type LocalFiles, type SocialPubBackend } from './backend';
export { PLATFORMS_URI, postUri, type ResourceNotifier } from './resources';
export { nextStep, type ToolErrorInfo } from './next-step';
export type { MediaWaitOptions } from './wait-for-media';
export { notifyChanges, NOTIFYING_EVENT_TYPES, type ChangeEvent } from './event-notifications';
export { TOOL_ROUTES, toolAllowed } from './tool-routes';

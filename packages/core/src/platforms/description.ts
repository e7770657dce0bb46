import type { ZodObject } from 'zod';

/**
 * What one platform is, as data: the contract's part of a platform (docs/platforms/adding-a-platform.md).
 * One file per platform (`core/src/platforms/<platform>.ts`), listed once in `registry.ts`; core's
 * schemas, the daemon's generic code, the CLI, the MCP server and the docs read it from there.
 * No I/O and no zod at run time here: the CLI's one-request commands load this table without zod.
 */

export const CONTENT_TYPES = ['feed', 'story', 'reels', 'tweet', 'post', 'video', 'shorts', 'photo', 'document', 'pin', 'video_pin'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/**
 * Each content type as the networks name it to people (the dashboard's previews, targets and
 * calendar): `tweet` is a "post" since X renamed it, `reels` one "reel", `shorts` one "Short".
 */
export const CONTENT_TYPE_NAMES: Readonly<Record<ContentType, string>> = {
  feed: 'feed post',
  story: 'story',
  reels: 'reel',
  tweet: 'post',
  post: 'post',
  video: 'video',
  shorts: 'Short',
  photo: 'photo',
  document: 'document',
  pin: 'Pin',
  video_pin: 'video Pin',
};

/** The content types that carry a first comment: stories take none through any API. */
export const COMMENT_TYPES: readonly ContentType[] = ['feed', 'reels', 'tweet', 'post', 'video', 'shorts', 'document'];

/** `document`: a PDF (LinkedIn document posts). */
export type MediaKind = 'image' | 'video' | 'document';

export interface MediaRule {
  /** Fewest media items the type accepts (0: text alone is fine). */
  min: number;
  /** Most media items one post of this type carries. */
  max: number;
  /** Kinds accepted. */
  kinds: readonly MediaKind[];
  /** When a video is present, it must be the only item. */
  videoAlone: boolean;
}

export type CaptionCounting = 'characters' | 'x-weighted' | 'threads-utf8-emoji' | 'utf16' | 'bytes' | 'graphemes' | 'mastodon';

export interface PlatformInfo {
  types: readonly ContentType[];
  defaultType: ContentType;
  caption: {
    max: number;
    counting: CaptionCounting;
    maxHashtags?: number;
    maxMentions?: number;
    maxLinks?: number;
    /** Characters each link counts, whatever its length (mastodon: the server's characters_reserved_per_url). */
    urlLength?: number;
  };
  media: Partial<Record<ContentType, MediaRule>>;
  /** The platform pulls media from a public URL (so a daemon without a public base URL cannot serve it). */
  pullsMedia: boolean;
}

/** What the platform publishes after the post itself (thread and first_comment of POST /content/publish). */
export interface FollowUpRules {
  /** Publishes `thread` as a reply chain. */
  thread: boolean;
  /** Takes a `first_comment`. */
  firstComment: boolean;
  /** The first comment is itself a post (a self-reply): its text follows the caption rules. */
  commentIsPost: boolean;
  /** Refuses a post whose text repeats one of the account's (X): a chain must not repeat itself. */
  refusesRepeatedText: boolean;
}

/** A flag of `socialpub connect <platform>` (live) that the platform's connect flow reads. */
export interface ConnectFlag {
  /** Commander's flag text: `--board <id>`. */
  flags: string;
  /** The help text, naming the platform: `pinterest: the board pins go to ...`. */
  description: string;
  /** The key of the connect flow's options it fills (`boardId`). */
  option: string;
  /** Also set when the flag is given (`--consumer-key` picks `auth: 'oauth1'`). */
  implies?: Readonly<Record<string, string>>;
  /** The values it accepts; anything else is a usage error. */
  choices?: readonly string[];
}

/** A field the dashboard's live connect asks for (POST /connections/{platform}/authorize's body). */
export interface BrowserConnectField {
  /** The request's field: `handle`, `app_password`, `server`. */
  field: 'handle' | 'app_password' | 'server';
  /** The connect flow's option it fills (the connect flag's `option`: `appPassword`). */
  option: string;
  label: string;
  /** A line of help under the field. */
  help?: string;
  /** Example text shown in the empty field (`you.bsky.social`, `mastodon.social`). */
  placeholder?: string;
  /** Typed as a password, never shown. */
  secret?: boolean;
}

export interface ConnectDescription {
  /** Flags beyond the shared ones (--client-id, --client-secret, --redirect-uri). */
  flags: readonly ConnectFlag[];
  /**
   * The live connect needs no app of the person's own (no client id or secret): these fields
   * instead (Bluesky: the handle and an app password; Mastodon: the server, where socialpub
   * registers its own app). Absent: the platform's app id (and secret) are asked.
   */
  browserFields?: readonly BrowserConnectField[];
  /** Flags that come together (`--access-token` and `--access-secret`), and what they are. */
  together?: readonly { flags: readonly [string, string]; what: string }[];
  /** The flow's prompts and the flag that answers each, for a run without a terminal. */
  questions: Readonly<Record<string, string>>;
  /** What `page_id` of a connection names here (default `page`): `organization`, `board`. */
  pageWord?: string;
  /** `socialpub connect` examples. */
  examples: readonly string[];
}

/**
 * A question `socialpub publish` asks in a terminal about one of the platform's options when
 * no --option gave it (docs/cli.md "In a terminal"). Answers are checked with the option's
 * own schema.
 */
export interface PublishQuestion {
  /** The platform_options field the answer fills. */
  option: string;
  /** The prompt. */
  ask: string;
  /**
   * text: one line; list: comma-separated values (empty: none); choice: one of `choices`;
   * seconds-or-url: a whole number of seconds fills `option`, an http(s) URL `urlOption`.
   */
  kind: 'text' | 'list' | 'choice' | 'seconds-or-url';
  /** Asked only when one of these of the platform's types is chosen (a LinkedIn document's title). */
  types?: readonly ContentType[];
  /** text: the caption's first line is offered, cut to `max` characters, `strip`'s characters removed. */
  captionDefault?: { max: number; strip?: string };
  /** text: an empty answer is refused with this message. */
  required?: string;
  /** seconds-or-url: the answer offered; the option a URL answer fills; the message for anything else. */
  default?: string;
  urlOption?: string;
  invalid?: string;
  /** choice: the choices; the one with `value: ''` leaves the option unset. */
  choices?: readonly { value: string; name: string }[];
  /** choice: the answer is given as a one-item list (Bluesky's labels). */
  asList?: boolean;
  /**
   * choice: only the choices the account allows, read from the list at `field` of what the
   * SDK's `client.platforms[method]()` answers; unreadable: not asked, with a warning naming `what`.
   */
  choicesFromAccount?: { method: string; field: string; what: string };
}

/**
 * How the network shows a post of one content type (the dashboard's previews draw it so):
 * the media's aspect ratio as the network frames it, and whether the caption is shown at all.
 */
export interface ContentFrame {
  /** Width:height, as the networks and their guidelines say it: `4:5`, `9:16`, `2:3`. */
  ratio: '1:1' | '4:5' | '9:16' | '16:9' | '2:3';
  /** false: a post of this type carries no caption (an Instagram or Facebook story); the caption is not published. */
  caption: boolean;
}

/**
 * An option of `platform_options.<platform>` in a person's words (the dashboard's forms and
 * previews). Keyed by the option's name; a field inside an object or a list of objects by its
 * path (`poll.duration_minutes`, `user_tags.username`).
 */
export interface OptionWords {
  /** The field's label: "AI-generated content". */
  label: string;
  /** One sentence of help; absent: the option schema's description, its leading API name removed. */
  help?: string;
  /** Each allowed value as the network names it: `{ SELF_ONLY: 'Only me' }`. */
  choices?: Readonly<Record<string, string>>;
}

export interface PlatformDescription<Id extends string = string> {
  /** The identifier in the API (`platforms: ["bluesky"]`). */
  readonly id: Id;
  /** The name people know it by. */
  readonly name: string;
  /** Other names people type for it, which the CLI accepts (`x` for twitter). */
  readonly aliases?: readonly string[];
  /** Content types, caption and media limits (docs/reference/platforms.md §7). */
  readonly info: PlatformInfo;
  readonly followUps: FollowUpRules;
  /** Each option's label, help and choices in words (an option left out is named after its field). */
  readonly optionWords?: Readonly<Record<string, OptionWords>>;
  /** How each content type is shown (a type left out: 1:1, with its caption). */
  readonly frames?: Partial<Record<ContentType, ContentFrame>>;
  /** Whether the platform's API deletes published posts: true, false, or when (a condition in words). */
  readonly takedown: boolean | string;
  readonly connect: ConnectDescription;
  readonly cli: {
    /** `--option` examples for `publish --help`: `bluesky.langs=en,fr`. */
    optionExamples: readonly string[];
    /** The publish wizard's questions about the platform's options, in order. */
    questions?: readonly PublishQuestion[];
  };
  readonly mcp: {
    /** A rule agents need beyond the table (a line of publish_post's description). */
    publishRule?: string;
    /** What list_platforms shows of a connection beyond the common fields. */
    connection?: string;
  };
  readonly docs: {
    /** The platform's page in docs/. */
    page: string;
    /** One sentence: what publishing there does. */
    summary: string;
  };
  /**
   * The platform's options schema (platform_options.<id>), for a platform registered from
   * outside core; core's own platforms list theirs in schemas/platform-options.ts, so that
   * this table stays free of zod.
   */
  readonly options?: ZodObject;
}

const SQUARE: ContentFrame = { ratio: '1:1', caption: true };

/** How `description` shows a post of `type` (its `frames` entry, else square with the caption). */
export function frameOf(description: Pick<PlatformDescription, 'frames'> | undefined, type: string): ContentFrame {
  return description?.frames?.[type as ContentType] ?? SQUARE;
}

/** A platform description with its identifier kept as a literal type. */
export function definePlatform<const Id extends string>(description: PlatformDescription<Id>): PlatformDescription<Id> {
  return description;
}

export const mediaRule = (min: number, max: number, kinds: readonly MediaKind[], videoAlone = true): MediaRule => ({ min, max, kinds, videoAlone });
export const IMAGE_OR_VIDEO: readonly MediaKind[] = ['image', 'video'];
export const VIDEO: readonly MediaKind[] = ['video'];

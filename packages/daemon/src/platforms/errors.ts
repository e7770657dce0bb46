/** The errors an adapter throws to tell the publisher what happened (defined in util/, as media/ throws them too). */
export * from '../util/publish-errors';

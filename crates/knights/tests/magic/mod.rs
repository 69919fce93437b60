//! Magic tours: the published semimagic 8x8 tours recognised.

mod published;

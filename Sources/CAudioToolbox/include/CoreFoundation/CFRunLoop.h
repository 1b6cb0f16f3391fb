/*
 * CoreFoundation/CFRunLoop.h — run loops, the threads' event loops through which Core Audio
 * delivers callbacks to a thread that asks for them (Audio Queue Services' callbacks, the audio
 * session's listeners, system sounds' completions): a callback given a run loop is queued on it and
 * runs when that thread runs the loop (CFRunLoopRunInMode), never on another thread. Soundstage's
 * subset (see CoreFoundation.h): the current and main run loops, running them in a mode for a time,
 * stopping and waking them. No timers, ports or observers. Written from Apple's documentation; no
 * Apple header was copied.
 */
#ifndef SOUNDSTAGE_CFRUNLOOP_H
#define SOUNDSTAGE_CFRUNLOOP_H

#include <CoreFoundation/CFBase.h>
#include <CoreFoundation/CFString.h>
#include <CoreFoundation/CFDate.h>

CA_HEADER_BEGIN

/* Soundstage's symbols for these names (see CFBase.h). */
#define CFRunLoopGetCurrent soundstage_CFRunLoopGetCurrent
#define CFRunLoopGetMain soundstage_CFRunLoopGetMain
#define CFRunLoopRun soundstage_CFRunLoopRun
#define CFRunLoopRunInMode soundstage_CFRunLoopRunInMode
#define CFRunLoopStop soundstage_CFRunLoopStop
#define CFRunLoopWakeUp soundstage_CFRunLoopWakeUp
#define CFRunLoopIsWaiting soundstage_CFRunLoopIsWaiting


/** A thread's run loop (Swift: the class CFRunLoop). Each thread has one, made when first asked
    for, and freed when the thread ends; the main thread's lives as long as the process. */
typedef struct __CFRunLoop *CFRunLoopRef;

/** A run loop mode: a string naming a set of sources (Swift: the struct CFRunLoopMode). */
typedef CFStringRef CFRunLoopMode CA_SWIFT_NAME(CFRunLoopModeObject);

/** The default mode: what a thread runs when it has nothing special to wait for. */
#define kCFRunLoopDefaultMode CFSTR("kCFRunLoopDefaultMode")
/** The common modes: a callback registered in them runs in the default mode (the only common mode here). */
#define kCFRunLoopCommonModes CFSTR("kCFRunLoopCommonModes")

/** How CFRunLoopRunInMode returned (Swift: .finished, .stopped, .timedOut, .handledSource). */
typedef CA_NAMED_ENUM(SInt32, CFRunLoopRunResult) {
    kCFRunLoopRunFinished CA_SWIFT_NAME(finished)           = 1,   /* the mode has nothing to wait for */
    kCFRunLoopRunStopped CA_SWIFT_NAME(stopped)             = 2,   /* CFRunLoopStop */
    kCFRunLoopRunTimedOut CA_SWIFT_NAME(timedOut)           = 3,   /* the time given ran out */
    kCFRunLoopRunHandledSource CA_SWIFT_NAME(handledSource) = 4    /* one callback ran, and that was asked for */
};

/** The calling thread's run loop. */
CF_EXPORT CFRunLoopRef CFRunLoopGetCurrent(void) CF_RETURNS_NOT_RETAINED CA_SWIFT_NAME(CFRunLoopGetCurrent());
/** The main thread's run loop (the process's first thread). */
CF_EXPORT CFRunLoopRef CFRunLoopGetMain(void) CF_RETURNS_NOT_RETAINED CA_SWIFT_NAME(CFRunLoopGetMain());

/**
 * Runs the calling thread's run loop in mode: the callbacks queued for it run, on this thread, one
 * after another, until the time is up (kCFRunLoopRunTimedOut), one has run and
 * returnAfterSourceHandled asked to return then (kCFRunLoopRunHandledSource), CFRunLoopStop
 * (kCFRunLoopRunStopped), or the mode has nothing left to wait for: no callback queued and nothing
 * (an audio queue, a listener) that will queue one (kCFRunLoopRunFinished, at once if so from the
 * start). seconds 0 runs what is queued now and returns. Callbacks may run the loop again (nested).
 */
CF_EXPORT CFRunLoopRunResult CFRunLoopRunInMode(CFRunLoopMode mode, CFTimeInterval seconds, Boolean returnAfterSourceHandled)
    CA_SWIFT_NAME(CFRunLoopRunInMode(_:_:_:));
/** Runs the calling thread's run loop in the default mode until it is stopped or has nothing to wait for. */
CF_EXPORT void CFRunLoopRun(void) CA_SWIFT_NAME(CFRunLoopRun());
/** Makes the run loop's innermost CFRunLoopRunInMode return kCFRunLoopRunStopped (from any thread;
    a loop not running returns so from its next run). NULL is ignored. */
CF_EXPORT void CFRunLoopStop(CFRunLoopRef rl) CA_SWIFT_NAME(CFRunLoopStop(_:));
/** Wakes a run loop waiting for callbacks, so it checks again (from any thread). NULL is ignored. */
CF_EXPORT void CFRunLoopWakeUp(CFRunLoopRef rl) CA_SWIFT_NAME(CFRunLoopWakeUp(_:));
/** Whether the run loop is waiting for a callback right now. */
CF_EXPORT Boolean CFRunLoopIsWaiting(CFRunLoopRef rl) CA_SWIFT_NAME(CFRunLoopIsWaiting(_:));

CA_HEADER_END

#endif /* SOUNDSTAGE_CFRUNLOOP_H */

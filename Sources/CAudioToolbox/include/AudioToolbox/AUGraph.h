/*
 * AudioToolbox/AUGraph.h — Audio Processing Graph Services: a graph of audio units (nodes) and the
 * connections and input callbacks between them, opened, initialized and started as one, its output
 * node (an output unit) pulling the rest. Deprecated by Apple in favour of AVAudioEngine but what
 * older iOS code uses. Written for Soundstage from Apple's published documentation; no Apple header
 * was copied. Values are Apple's.
 *
 * A graph is built while closed (AUGraphAddNode), opened to make its units (AUGraphOpen; then
 * AUGraphNodeInfo gives each node's AudioUnit for setting properties), initialized and started.
 * A change to the connections of an initialized graph is recorded and takes effect at
 * AUGraphUpdate. Every call on a disposed graph, or with a node not in it, returns an error code
 * (kAudio_ParamError, kAUGraphErr_NodeNotFound), never crashes.
 *
 * Swift: a graph is an AUGraph? (an OpaquePointer), a node an AUNode (Int32); kAUNodeInteraction_*
 * are UInt32, as on iOS.
 */
#ifndef AudioToolbox_AUGraph_h
#define AudioToolbox_AUGraph_h

#include <CoreFoundation/CoreFoundation.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/AUComponent.h>
#include <AudioToolbox/AudioUnitProperties.h>

CA_HEADER_BEGIN

/** A graph of audio units: a handle that DisposeAUGraph leaves stale. */
typedef struct OpaqueAUGraph *AUGraph;
/** A node of a graph (an audio unit in it), numbered by the graph. */
typedef SInt32 AUNode;

/* What the graph functions return, besides the units' own errors (AUComponent.h). */
CA_ENUM(OSStatus) {
    kAUGraphErr_NodeNotFound = -10860,              /* a node not in the graph */
    kAUGraphErr_InvalidConnection = -10861,         /* a connection the units refuse */
    kAUGraphErr_OutputNodeErr = -10862,             /* a second output unit, or none to start */
    kAUGraphErr_CannotDoInCurrentContext = -10863,  /* not now (the render thread holds the graph); try again */
    kAUGraphErr_InvalidAudioUnit = -10864
};

/** A connection from output sourceOutputNumber of sourceNode to input destInputNumber of destNode. */
typedef struct AudioUnitNodeConnection {
    AUNode sourceNode;
    UInt32 sourceOutputNumber;
    AUNode destNode;
    UInt32 destInputNumber;
} AudioUnitNodeConnection;

/** A render callback supplying input destInputNumber of destNode (AUGraphSetNodeInputCallback). */
typedef struct AUNodeRenderCallback {
    AUNode destNode;
    AudioUnitElement destInputNumber;
    AURenderCallbackStruct cback;
} AUNodeRenderCallback;

/* AUNodeInteraction.nodeInteractionType: which member of nodeInteraction is set. Other kinds may
   come: skip those you do not know. */
CA_ENUM(UInt32) {
    kAUNodeInteraction_Connection = 1,
    kAUNodeInteraction_InputCallback = 2
};

/** Something feeding a node's input: a connection from another node or an input callback. */
typedef struct AUNodeInteraction {
    UInt32 nodeInteractionType;
    union {
        AudioUnitNodeConnection connection;
        AUNodeRenderCallback inputCallback;
    } nodeInteraction;
} AUNodeInteraction;

/** A new, empty graph in *outGraph. */
OSStatus NewAUGraph(AUGraph CA_NULLABLE *CA_NULLABLE outGraph);
/** Stops, uninitializes and closes the graph, disposes of its units and of it. */
OSStatus DisposeAUGraph(AUGraph CA_NULLABLE inGraph);

/** Adds a node for the component *inDescription names; in an open graph its unit is made at once. */
OSStatus AUGraphAddNode(AUGraph CA_NULLABLE inGraph, const AudioComponentDescription *CA_NULLABLE inDescription,
                        AUNode *CA_NULLABLE outNode);
/** Removes a node, its connections and input callbacks, and disposes of its unit. */
OSStatus AUGraphRemoveNode(AUGraph CA_NULLABLE inGraph, AUNode inNode);
/** How many nodes the graph has. */
OSStatus AUGraphGetNodeCount(AUGraph CA_NULLABLE inGraph, UInt32 *CA_NULLABLE outNumberOfNodes);
/** The node at inIndex (0 to the count less one). */
OSStatus AUGraphGetIndNode(AUGraph CA_NULLABLE inGraph, UInt32 inIndex, AUNode *CA_NULLABLE outNode);
/** A node's description and, once the graph is open, its unit; either pointer may be NULL. */
OSStatus AUGraphNodeInfo(AUGraph CA_NULLABLE inGraph, AUNode inNode, AudioComponentDescription *CA_NULLABLE outDescription,
                         AudioUnit CA_NULLABLE *CA_NULLABLE outAudioUnit);

/** Makes the nodes' units (the graph stays uninitialized). */
OSStatus AUGraphOpen(AUGraph CA_NULLABLE inGraph);
/** Disposes of the nodes' units, keeping the nodes and connections. */
OSStatus AUGraphClose(AUGraph CA_NULLABLE inGraph);
/** Makes the connections and initializes every unit of the open graph. */
OSStatus AUGraphInitialize(AUGraph CA_NULLABLE inGraph);
/** Uninitializes every unit (stopping the graph first). */
OSStatus AUGraphUninitialize(AUGraph CA_NULLABLE inGraph);
/** Starts the initialized graph's output node. */
OSStatus AUGraphStart(AUGraph CA_NULLABLE inGraph);
/** Stops the output node. */
OSStatus AUGraphStop(AUGraph CA_NULLABLE inGraph);
/** Whether the graph is open. */
OSStatus AUGraphIsOpen(AUGraph CA_NULLABLE inGraph, Boolean *CA_NULLABLE outIsOpen);
/** Whether the graph is initialized. */
OSStatus AUGraphIsInitialized(AUGraph CA_NULLABLE inGraph, Boolean *CA_NULLABLE outIsInitialized);
/** Whether the graph is running. */
OSStatus AUGraphIsRunning(AUGraph CA_NULLABLE inGraph, Boolean *CA_NULLABLE outIsRunning);
/** The share of a render period the graph's rendering has been taking lately, 0...1. */
OSStatus AUGraphGetCPULoad(AUGraph CA_NULLABLE inGraph, Float32 *CA_NULLABLE outAverageCPULoad);
/** The largest share since the last call, 0...1. */
OSStatus AUGraphGetMaxCPULoad(AUGraph CA_NULLABLE inGraph, Float32 *CA_NULLABLE outMaxLoad);

/** Connects output inSourceOutputNumber of inSourceNode to input inDestInputNumber of inDestNode. */
OSStatus AUGraphConnectNodeInput(AUGraph CA_NULLABLE inGraph, AUNode inSourceNode, UInt32 inSourceOutputNumber,
                                 AUNode inDestNode, UInt32 inDestInputNumber);
/** Makes *inInputCallback supply input inDestInputNumber of inDestNode. */
OSStatus AUGraphSetNodeInputCallback(AUGraph CA_NULLABLE inGraph, AUNode inDestNode, UInt32 inDestInputNumber,
                                     const AURenderCallbackStruct *CA_NULLABLE inInputCallback);
/** Removes the connection or input callback of input inDestInputNumber of inDestNode. */
OSStatus AUGraphDisconnectNodeInput(AUGraph CA_NULLABLE inGraph, AUNode inDestNode, UInt32 inDestInputNumber);
/** Removes every connection and input callback. */
OSStatus AUGraphClearConnections(AUGraph CA_NULLABLE inGraph);
/** How many interactions (connections and input callbacks) the graph has. */
OSStatus AUGraphGetNumberOfInteractions(AUGraph CA_NULLABLE inGraph, UInt32 *CA_NULLABLE outNumInteractions);
/** The interaction at inInteractionIndex. */
OSStatus AUGraphGetInteractionInfo(AUGraph CA_NULLABLE inGraph, UInt32 inInteractionIndex,
                                   AUNodeInteraction *CA_NULLABLE outInteraction);
/** How many interactions involve inNode (as source or destination). */
OSStatus AUGraphCountNodeInteractions(AUGraph CA_NULLABLE inGraph, AUNode inNode, UInt32 *CA_NULLABLE outNumInteractions);
/** The interactions involving inNode: *ioNumInteractions is the room in outInteractions, set to how
    many were written. */
OSStatus AUGraphGetNodeInteractions(AUGraph CA_NULLABLE inGraph, AUNode inNode, UInt32 *CA_NULLABLE ioNumInteractions,
                                    AUNodeInteraction *CA_NULLABLE outInteractions);
/** Applies the changes made since the graph was initialized; *outIsUpdated (NULL: wait until they
    are applied) says whether they were. */
OSStatus AUGraphUpdate(AUGraph CA_NULLABLE inGraph, Boolean *CA_NULLABLE outIsUpdated);

/** Calls inCallback before and after every render of the graph's output node. */
OSStatus AUGraphAddRenderNotify(AUGraph CA_NULLABLE inGraph, AURenderCallback CA_NULLABLE inCallback, void *CA_NULLABLE inRefCon);
/** Removes a render notification added with the same function and data. */
OSStatus AUGraphRemoveRenderNotify(AUGraph CA_NULLABLE inGraph, AURenderCallback CA_NULLABLE inCallback, void *CA_NULLABLE inRefCon);

CA_HEADER_END

#endif /* AudioToolbox_AUGraph_h */

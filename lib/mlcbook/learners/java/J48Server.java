// One JVM serving many Weka J48 fits for mlcbook.learners.j48 (see _weka.py).
// Binary protocol on stdin/stdout, big-endian (java.io.DataInput/DataOutput):
//   request  = command byte + payload, read completely before any work starts;
//   response = int status (0 ok, 1 error + UTF message, 2 unknown model id,
//              3 unknown data id) + payload.
// A feature matrix is sent once ('D') and kept under a data id; fits and predictions
// name it, so that the many fits of one matrix (MEKA's BR, LC, RAkEL) send only their
// class column.  The server keeps the MAX_DATA most recently used matrices and the
// MAX_MODELS most recently used models; a request naming one it dropped gets status 3
// (data) or 2 (model), and the client sends it again.
// Commands
//   'D' data:    d(int) d ints (0 numeric, v > 0 nominal with values "0".."v-1")
//                rows(int) X(rows*d doubles, NaN = missing) -> id(int)
//   'F' fit:     options(UTF) data id(int) classes(int) rows(int) y(rows ints)
//                -> id(int) model(int length + Java-serialised {J48, header} bytes)
//   'P' predict: model id(int) data id(int) -> classes(int) distributions(rows*classes
//                doubles) predicted class(rows ints; J48.classifyInstance)
//   'L' load:    model bytes -> id(int)
//   'T' tree:    id(int) -> J48.toString() as int length + UTF-8 bytes
//   'H' order:   m(int) then m label sets (int length + ints) -> the iteration order of
//                a java.util.HashMap keyed by the sets (first index of each distinct set)
//   'R' random:  seed(long) n(int) n bounds(int) -> java.util.Random(seed).nextInt(bound)
//                for each bound in turn (n ints)
//   'Q' quit.
// A fit's header: attributes x0..x(d-1) as the data's d ints say, then the class
// attribute with values "0".."classes-1"; its instances are the data's rows in order,
// each with weight 1 and its class value from y.
import java.io.*;
import java.util.*;
import weka.classifiers.trees.J48;
import weka.core.Attribute;
import weka.core.FastVector;
import weka.core.Instance;
import weka.core.Instances;
import weka.core.Utils;

public class J48Server {
  static final int MAX_MODELS = 256;
  static final Map<Integer, Object[]> MODELS =
      new LinkedHashMap<Integer, Object[]>(16, 0.75f, true) {
        protected boolean removeEldestEntry(Map.Entry<Integer, Object[]> e) {
          return size() > MAX_MODELS;
        }
      };
  static final int MAX_DATA = 8;
  static final Map<Integer, Data> DATA =
      new LinkedHashMap<Integer, Data>(16, 0.75f, true) {
        protected boolean removeEldestEntry(Map.Entry<Integer, Data> e) {
          return size() > MAX_DATA;
        }
      };
  static int nextId = 1;

  /** A feature matrix sent once: its attribute kinds and its rows. */
  static final class Data {
    final int[] kinds;
    final double[][] x;

    Data(int[] kinds, double[][] x) {
      this.kinds = kinds;
      this.x = x;
    }
  }

  static FastVector values(int v) {
    FastVector fv = new FastVector(v);
    for (int i = 0; i < v; i++) fv.addElement(Integer.toString(i));
    return fv;
  }

  static Instances header(int[] kinds, int classes) {
    int d = kinds.length;
    FastVector atts = new FastVector(d + 1);
    for (int i = 0; i < d; i++) {
      int v = kinds[i];
      atts.addElement(v == 0 ? new Attribute("x" + i) : new Attribute("x" + i, values(v)));
    }
    atts.addElement(new Attribute("class", values(classes)));
    Instances h = new Instances("data", atts, 0);
    h.setClassIndex(d);
    return h;
  }

  static double[][] rows(DataInputStream in, int n, int d) throws IOException {
    double[][] x = new double[n][d];
    for (int r = 0; r < n; r++) for (int c = 0; c < d; c++) x[r][c] = in.readDouble();
    return x;
  }

  /** A row's feature values followed by the class value y (missing when predicting). */
  static double[] row(double[] x, double y) {
    double[] v = new double[x.length + 1];
    System.arraycopy(x, 0, v, 0, x.length);
    v[x.length] = y;
    return v;
  }

  static byte[] serialise(Object[] model) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    ObjectOutputStream o = new ObjectOutputStream(b);
    o.writeObject(model);
    o.close();
    return b.toByteArray();
  }

  static int store(Object[] model) {
    int id = nextId++;
    MODELS.put(id, model);
    return id;
  }

  static int store(Data data) {
    int id = nextId++;
    DATA.put(id, data);
    return id;
  }

  static void fail(DataOutputStream out, Throwable e) throws IOException {
    out.writeInt(1);
    String m = e.toString();
    out.writeUTF(m.length() > 2000 ? m.substring(0, 2000) : m);
  }

  public static void main(String[] args) throws Exception {
    DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));
    DataOutputStream out = new DataOutputStream(new BufferedOutputStream(System.out, 1 << 16));
    System.setOut(System.err); // nothing Weka prints may corrupt the protocol
    while (true) {
      int cmd;
      try {
        cmd = in.readByte();
      } catch (EOFException e) {
        return;
      }
      if (cmd == 'Q') return;
      if (cmd == 'D') {
        int d = in.readInt();
        int[] kinds = new int[d];
        for (int i = 0; i < d; i++) kinds[i] = in.readInt();
        int n = in.readInt();
        double[][] x = rows(in, n, d);
        out.writeInt(0);
        out.writeInt(store(new Data(kinds, x)));
      } else if (cmd == 'F') {
        String options = in.readUTF();
        Data data = DATA.get(in.readInt());
        int classes = in.readInt(), n = in.readInt();
        int[] y = new int[n];
        for (int r = 0; r < n; r++) y[r] = in.readInt();
        if (data == null) {
          out.writeInt(3);  // the client sends the data again, then this request
        } else {
          try {
            if (data.x.length != n) throw new IllegalArgumentException(
                "y has " + n + " rows, the data " + data.x.length);
            Instances train = header(data.kinds, classes);
            for (int r = 0; r < n; r++) train.add(new Instance(1.0, row(data.x[r], y[r])));
            J48 tree = new J48();
            tree.setOptions(Utils.splitOptions(options));
            tree.buildClassifier(train);
            Object[] model = {tree, new Instances(train, 0)};
            byte[] bytes = serialise(model);
            out.writeInt(0);
            out.writeInt(store(model));
            out.writeInt(bytes.length);
            out.write(bytes);
          } catch (Exception e) {
            fail(out, e);
          }
        }
      } else if (cmd == 'P') {
        Object[] model = MODELS.get(in.readInt());
        Data data = DATA.get(in.readInt());
        if (model == null) {
          out.writeInt(2);
        } else if (data == null) {
          out.writeInt(3);
        } else {
          try {
            J48 tree = (J48) model[0];
            Instances h = (Instances) model[1];
            int n = data.x.length, d = data.kinds.length;
            if (h.numAttributes() - 1 != d) throw new IllegalArgumentException(
                "model has " + (h.numAttributes() - 1) + " features, X has " + d);
            int k = h.numClasses();
            double[][] dist = new double[n][];
            int[] cls = new int[n];
            for (int r = 0; r < n; r++) {
              Instance inst = new Instance(1.0, row(data.x[r], Instance.missingValue()));
              inst.setDataset(h);
              dist[r] = tree.distributionForInstance(inst);
              cls[r] = (int) tree.classifyInstance(inst);
            }
            out.writeInt(0);
            out.writeInt(k);
            for (int r = 0; r < n; r++) for (int c = 0; c < k; c++) out.writeDouble(dist[r][c]);
            for (int r = 0; r < n; r++) out.writeInt(cls[r]);
          } catch (Exception e) {
            fail(out, e);
          }
        }
      } else if (cmd == 'L') {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        try {
          ObjectInputStream o = new ObjectInputStream(new ByteArrayInputStream(bytes));
          Object[] model = (Object[]) o.readObject();
          out.writeInt(0);
          out.writeInt(store(model));
        } catch (Exception e) {
          fail(out, e);
        }
      } else if (cmd == 'T') {
        Object[] model = MODELS.get(in.readInt());
        if (model == null) {
          out.writeInt(2);
        } else {
          byte[] text = model[0].toString().getBytes("UTF-8");
          out.writeInt(0);
          out.writeInt(text.length);
          out.write(text);
        }
      } else if (cmd == 'H') {
        int m = in.readInt();
        HashMap<List<Integer>, Integer> map = new HashMap<List<Integer>, Integer>();
        for (int i = 0; i < m; i++) {
          int len = in.readInt();
          List<Integer> key = new ArrayList<Integer>(len);
          for (int j = 0; j < len; j++) key.add(in.readInt());
          if (!map.containsKey(key)) map.put(key, i);
        }
        out.writeInt(0);
        out.writeInt(map.size());
        for (Integer first : map.values()) out.writeInt(first);
      } else if (cmd == 'R') {
        Random random = new Random(in.readLong());
        int n = in.readInt();
        int[] bounds = new int[n];
        for (int i = 0; i < n; i++) bounds[i] = in.readInt();
        out.writeInt(0);
        for (int i = 0; i < n; i++) out.writeInt(random.nextInt(bounds[i]));
      } else {
        System.err.println("J48Server: unknown command " + cmd);
        System.exit(3);
      }
      out.flush();
    }
  }
}

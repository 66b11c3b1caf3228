package s;

// import r.E; in a comment is no import
public class G {
}
